-- to_char of dates and timestamps with the whole template-pattern table
-- (pgtype/dtfmt.c) and its reverse, to_timestamp(text, text) / to_date(text,
-- text): FM/TM/TH/th/SP, FX, separators and spaces, YY/YYY centuries, CC, J,
-- ISO weeks, DDD, RM, AM/PM, TZH/TZM, FF1..FF6, and the 22007/22008/0A000
-- errors of formatting.c.
SET TIME ZONE 'UTC';
select to_char(timestamp '2024-03-05 14:07:09.123456', 'YYYY-MM-DD HH24:MI:SS.US'), to_char(timestamp '2024-03-05 14:07:09.123456', 'FF1 FF2 FF3 FF4 FF5 FF6 MS US'), to_char(timestamp '2024-03-05 04:07:09', 'HH HH12 HH24 AM am A.M. a.m. PM');
select to_char(timestamp '2024-03-05 14:07:09', 'DDth DDTH FMDDth Dth MMth YYYYth HH24th MIth SSth'), to_char(timestamp '2024-03-01', 'FMDDth'), to_char(timestamp '2024-03-02', 'FMDDth'), to_char(timestamp '2024-03-03', 'FMDDth'), to_char(timestamp '2024-03-11', 'FMDDth'), to_char(timestamp '2024-03-22', 'FMDDth');
select to_char(timestamp '2024-03-05', 'MONTH Month month MON Mon mon'), to_char(timestamp '2024-03-05', 'FMMONTH|FMMonth|FMmonth'), to_char(timestamp '2024-03-05', 'TMMonth|TMDay|TMMON'), to_char(timestamp '2024-03-05', 'DAY Day day DY Dy dy'), to_char(timestamp '2024-03-05', 'FMDay, FMDD FMMonth YYYY');
select to_char(timestamp '2024-03-05', 'J'), to_char(timestamp '2024-03-05', 'CC'), to_char(timestamp '2000-12-31', 'CC'), to_char(timestamp '2001-01-01', 'CC'), to_char(timestamp '0044-03-15 BC', 'CC YYYY BC B.C. bc'), to_char(timestamp '0001-01-01 BC', 'CC YYYY AD'), to_char(timestamp '2024-03-05', 'RM rm FMRM|'), to_char(timestamp '2024-12-05', 'RM');
select to_char(timestamp '2024-12-30', 'IYYY IYY IY I IW ID IDDD'), to_char(timestamp '2021-01-03', 'IYYY-IW-ID'), to_char(timestamp '2024-03-05', 'WW W Q D DDD'), to_char(timestamp '2024-03-05 14:07:09', 'SSSS SSSSS'), to_char(timestamp '12345-01-01', 'Y,YYY YYYY YYY YY Y');
select to_char(timestamp '2024-03-05 14:07:09', '"text" YYYY "with \"quote\"" \"MM\" HH24\MI'), to_char(timestamp '2024-03-05', 'FMYYYY'), to_char(timestamp '0005-03-05', 'YYYY FMYYYY'), to_char(timestamp '2024-03-05', 'SP DDSP FX YYYY fm MM'), to_char(timestamp '2024-03-05', 'TZ tz TZH TZM OF');
select to_char(timestamptz '2024-03-05 14:07:09+00', 'YYYY-MM-DD HH24:MI:SS TZ tz OF TZH:TZM'), to_char(date '2024-03-05', 'YYYY/MM/DD Day'), to_char(timestamp '2024-03-05', ''), to_char(timestamp 'infinity', 'YYYY'), to_char(null::timestamp, 'YYYY');
SET TIME ZONE 'America/New_York';
select to_char(timestamptz '2024-07-05 14:07:09+00', 'YYYY-MM-DD HH24:MI:SS TZ tz OF TZH:TZM FMOF'), to_char(timestamptz '2024-01-05 14:07:09+00', 'TZ OF');
SET TIME ZONE 'Asia/Kolkata';
select to_char(timestamptz '2024-07-05 14:07:09+00', 'HH24:MI TZ OF FMOF TZH TZM');
-- to_char of intervals: fields with the interval's sign, years as they are, 22007 for calendar-only patterns
select to_char(interval '1 year 2 months 3 days 04:05:06.789', 'YYYY-MM-DD HH24:MI:SS.MS US FF2'), to_char(interval '-1 year -2 months -3 days -04:05:06.789', 'YYYY YY Y MM DD HH24 HH HH12 MI SS MS'), to_char(interval '100 hours', 'HH24 HH12 AM SSSS DDD'), to_char(interval '3 months', 'Q RM rm MM W WW');
select to_char(interval '0', 'HH24:MI:SS YYYY CC Q RM|'), to_char(interval '-14 months', 'RM YYYY MM CC'), to_char(interval '12 months', 'RM|FMRM|Y,YYY'), to_char(interval '2500 years', 'CC Y,YYY IYYY J IW IDDD'), to_char(interval '1 day', ''), to_char(null::interval, 'HH'), to_char(interval '15 hours', 'FMHH12th PM a.m.');
select to_char(interval '100 hours', 'IYYY IYY IY I'), to_char(interval '-00:00:00.5', 'IYYY YYYY IW'), to_char(interval '0', 'IYYY CC J');
select to_char(interval '1 day', 'Day');
select to_char(interval '1 day', 'MON');
select to_char(interval '1 day', 'TZ');
select to_char(interval '1 day', 'AD');
select to_char(interval '1 day', 'D');
select to_char(interval '1 day', 'ID');
select to_char(interval '1 day', 'OF');
SET TIME ZONE 'UTC';
-- to_timestamp / to_date
select to_timestamp('2024-03-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS'), to_date('2024-03-05', 'YYYY-MM-DD'), to_date('05 Mar 2024', 'DD Mon YYYY'), to_date('March 5, 2024', 'Month DD, YYYY'), to_date('20240305', 'YYYYMMDD');
select to_timestamp('2011-12-18 11:38 AM', 'YYYY-MM-DD HH12:MI AM'), to_timestamp('2011-12-18 11:38 PM', 'YYYY-MM-DD HH12:MI PM'), to_timestamp('2011-12-18 12:38 a.m.', 'YYYY-MM-DD HH12:MI a.m.'), to_timestamp('2011-12-18 12:38 P.M.', 'YYYY-MM-DD HH:MI P.M.');
select to_date('1 4 1902', 'Q MM YYYY'), to_date('3 4 21 01', 'W MM CC YY'), to_date('2458872', 'J'), to_date('44-02-01 BC','YYYY-MM-DD BC'), to_date('-44-02-01','YYYY-MM-DD'), to_date('2016 365', 'YYYY DDD'), to_date('2016 366', 'YYYY DDD'), to_date('2015 365', 'YYYY DDD');
select to_date('2016-13-10', 'YYYY-IW-ID'), to_date('2016-W13-3', 'IYYY-"W"IW-ID'), to_date('2016 090', 'IYYY IDDD'), to_date('2020 1', 'IYYY IW'), to_timestamp('1997 TH 1', 'YYYY "TH" D');
select to_date('69-01-01', 'YY-MM-DD'), to_date('70-01-01', 'YY-MM-DD'), to_date('99-01-01', 'YY-MM-DD'), to_date('100-01-01', 'YYY-MM-DD'), to_date('519-01-01', 'YYY-MM-DD'), to_date('520-01-01', 'YYY-MM-DD'), to_date('999-01-01', 'YYY-MM-DD'), to_date('5-01-01', 'Y-MM-DD'), to_date('2024-01-01', 'YY-MM-DD');
select to_date('21 05', 'CC YY'), to_date('21 00', 'CC YY'), to_date('21', 'CC'), to_date('5 BC 21', 'CC BC YY'), to_date('20 2024', 'CC YYYY'), to_date('1,234', 'Y,YYY'), to_date('12,345-06-07', 'Y,YYY-MM-DD');
select to_timestamp('2024-03-05 14:07:09.123456', 'YYYY-MM-DD HH24:MI:SS.US'), to_timestamp('2024-03-05 14:07:09.12', 'YYYY-MM-DD HH24:MI:SS.MS'), to_timestamp('2024-03-05 14:07:09.5', 'YYYY-MM-DD HH24:MI:SS.US'), to_timestamp('09.123456', 'SS.FF3'), to_timestamp('09.1234', 'SS.FF2'), to_timestamp('09.125', 'SS.FF2'), to_timestamp('09.9999999', 'SS.FF6');
select to_timestamp('2024-03-05 14:07 +05:30', 'YYYY-MM-DD HH24:MI TZH:TZM'), to_timestamp('2024-03-05 14:07 -05', 'YYYY-MM-DD HH24:MI TZH'), to_timestamp('2024-03-05 14:07-08', 'YYYY-MM-DD HH24:MITZH'), to_timestamp('2024-03-05 14:07 30', 'YYYY-MM-DD HH24:MI TZM'), to_timestamp('2024-03-05 14:07 +1', 'YYYY-MM-DD HH24:MI TZH');
select to_timestamp('  2024   03  05', 'YYYY MM DD'), to_timestamp('2024/03/05', 'YYYY-MM-DD'), to_timestamp('2024xx03xx05', 'YYYYxxMMxxDD'), to_timestamp('2024 - 03 - 05', 'YYYY-MM-DD'), to_timestamp('2024-03-05', 'YYYY MM DD'), to_timestamp('20240305', 'YYYY MM DD');
select to_timestamp('2024  03', 'FXYYYY  MM'), to_timestamp('2024-03', 'FXYYYY-MM'), to_timestamp('2024x03', 'FXYYYY-MM'), to_timestamp('5 3 2024', 'FMDD FMMM YYYY'), to_timestamp('05032024', 'DDMMYYYY'), to_timestamp('5032024', 'FMDDMMYYYY');
select to_timestamp('1,582nd VIII 21', 'Y,YYYth FMRM DD'), to_timestamp('15 viii 2024', 'DD rm YYYY'), to_timestamp('Tuesday 2024-03-05', 'Day YYYY-MM-DD'), to_timestamp('tue 2024-03-05', 'dy YYYY-MM-DD'), to_timestamp('MARCH 5 2024', 'MONTH DD YYYY'), to_timestamp('mar 5 2024', 'MON DD YYYY');
select to_timestamp('86399', 'SSSS'), to_timestamp('3600', 'SSSSS'), to_timestamp('12', 'HH24'), to_timestamp('', ''), to_timestamp('2024', ''), to_date('', ''), to_timestamp('2024-03-05', 'YYYY-MM-DD') = '2024-03-05 00:00:00+00', pg_typeof(to_timestamp('1', 'J')), pg_typeof(to_date('1', 'J'));
select to_timestamp(null, 'YYYY'), to_timestamp('2024', null), to_date(null, 'YYYY'), to_timestamp('2024-03-05 1st', 'YYYY-MM-DD DDth'), to_timestamp('2024-03-05th', 'YYYY-MM-DDth'), to_date('2024-03-05', 'YYYY-MM-DD HH24:MI');
select to_timestamp('9999-12-31 23:59:59.999999', 'YYYY-MM-DD HH24:MI:SS.US'), to_date('5874897-12-31', 'YYYY-MM-DD'), to_date('4714-11-24 BC', 'YYYY-MM-DD BC'), to_timestamp('294276-12-31', 'YYYY-MM-DD');
SET TIME ZONE 'America/New_York';
select to_timestamp('2024-07-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS'), to_timestamp('2024-03-10 02:30', 'YYYY-MM-DD HH24:MI'), to_timestamp('2024-11-03 01:30', 'YYYY-MM-DD HH24:MI'), to_timestamp('2024-07-05 14:07 +00', 'YYYY-MM-DD HH24:MI TZH');
SET TIME ZONE 'UTC';
-- errors
select to_timestamp('2024-13-05', 'YYYY-MM-DD');
select to_timestamp('2024-02-30', 'YYYY-MM-DD');
select to_date('2023-02-29', 'YYYY-MM-DD');
select to_timestamp('2024-03-32', 'YYYY-MM-DD');
select to_timestamp('25:00', 'HH24:MI');
select to_timestamp('13:00 PM', 'HH12:MI PM');
select to_timestamp('0:00 AM', 'HH:MI AM');
select to_timestamp('2024-03-05 14:60', 'YYYY-MM-DD HH24:MI');
select to_timestamp('abc', 'YYYY');
select to_timestamp('20', 'YYYYMM');
select to_timestamp('2024-0x-05', 'YYYY-MM-DD');
select to_timestamp('99999999999', 'YYYY');
select to_timestamp('2024 Foo', 'YYYY Month');
select to_timestamp('2024 Xy', 'YYYY Dy');
select to_timestamp('2024-03-05 +16', 'YYYY-MM-DD TZH');
select to_timestamp('2024-03-05 +05:60', 'YYYY-MM-DD TZH:TZM');
select to_timestamp('2024-03-05 UTC', 'YYYY-MM-DD TZ');
select to_timestamp('2024-03-05 +05', 'YYYY-MM-DD OF');
select to_timestamp('2024 10', 'YYYY IW');
select to_timestamp('2024-03 5', 'YYYY-MM ID');
select to_timestamp('366', 'DDD');
select to_timestamp('2024 03 04', 'YYYY MM MM');
select to_timestamp('03 2024 Tuesday 3', 'MM YYYY Day D');
select to_timestamp('5 2024', 'D YYYY');
select to_timestamp('1,23x', 'Y,YYY');
select to_date('5874898-06-01', 'YYYY-MM-DD');
select to_date('4714-11-23 BC', 'YYYY-MM-DD BC');
select to_timestamp('294277-01-01', 'YYYY-MM-DD');
select to_timestamp('10000000', 'J');
select to_timestamp('2024-03-05 12:00:00.1234567', 'YYYY-MM-DD HH24:MI:SS.US');
select to_timestamp('12.1234567', 'SS.FF6');
select to_timestamp('2024 02', 'YYYY WW MM');
select v, f, to_timestamp(v, f) from (values (1, '2024-03-05'), (2, '05/03/2024'), (3, '2024 Mar 05'), (4, ' 2024-3-5 '), (5, '2024-03-05T10:11:12'), (6, '240305'), (7, '2024-3')) a(i, v), (values (1, 'YYYY-MM-DD'), (2, 'DD/MM/YYYY'), (3, 'YYYY Mon DD'), (4, 'FMYYYY-FMMM-FMDD'), (5, 'YYYY-MM-DD"T"HH24:MI:SS'), (6, 'YYMMDD')) b(j, f) where (i, j) not in ((2, 1), (1, 2), (1, 3), (2, 3), (3, 1), (3, 2), (3, 4), (3, 5), (3, 6), (2, 4), (2, 5), (2, 6), (5, 3), (6, 2), (6, 3), (7, 2), (7, 3), (7, 6), (1, 6), (2, 6), (4, 2), (4, 3), (4, 6), (5, 2), (5, 6), (6, 1), (6, 4), (6, 5), (7, 5)) order by i, j;
-- long and hostile patterns stay linear
select length(to_char(timestamp '2024-03-05', repeat('YYYY-MM-DD ', 2000))), length(to_char(timestamp '2024-03-05', repeat('FMMonth', 3000))), md5(to_char(timestamp '2024-03-05', repeat('"', 1001) || 'x')), to_timestamp(repeat(' ', 5000) || '2024', repeat(' ', 3000) || 'YYYY');
select to_timestamp(repeat('1', 20000), 'YYYY');
-- parameters typed by their context
\describe SELECT to_timestamp($1, 'YYYY-MM-DD');
\describe SELECT to_date($1, $2);
\describe SELECT to_char($1::interval, $2);

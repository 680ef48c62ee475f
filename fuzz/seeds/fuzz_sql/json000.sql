select '{"b":[1,2.50,1e2,{"c":null}],"a":"x\u00e9","a":2}'::jsonb #> '{b,3}', jsonb_pretty('{"a":[{}]}'), jsonb_strip_nulls('{"a":null}'), '[1,[2]]'::jsonb @> '[[2]]', '{"a":1}'::jsonb ?| '{a,b}'

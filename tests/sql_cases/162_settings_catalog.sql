-- Every configuration parameter of PostgreSQL 15, as pg_settings, SHOW and
-- current_setting show it (src/sql/pg15_settings.inc, generated from a
-- fresh PostgreSQL 15). The values that belong to the machine or the
-- connection differ between the harness's server and RockLake and are left
-- out where the value is compared: the ones tests/pg/pg_env.sh changes
-- (port, listen_addresses, max_connections, shared_buffers, fsync,
-- synchronous_commit, full_page_writes), server_version (RockLake's own),
-- application_name and the TCP keepalives (the client's connection).
SELECT count(*) FROM pg_settings;
SELECT name, unit, category, short_desc, extra_desc, context, vartype, min_val, max_val, enumvals, boot_val FROM pg_settings WHERE name NOT IN ('server_version') ORDER BY name;
SELECT name, setting, reset_val, sourcefile, sourceline, pending_restart FROM pg_settings WHERE name NOT IN ('port', 'listen_addresses', 'max_connections', 'shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes', 'server_version', 'application_name', 'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count', 'tcp_user_timeout') ORDER BY name;
SELECT name, current_setting(name) FROM pg_settings WHERE name NOT IN ('port', 'listen_addresses', 'max_connections', 'shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes', 'server_version', 'application_name', 'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count', 'tcp_user_timeout') ORDER BY name;
SELECT name, source FROM pg_settings WHERE source NOT IN ('default', 'override') AND name NOT IN ('port', 'listen_addresses', 'max_connections', 'shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes', 'application_name', 'client_encoding') ORDER BY name;
SELECT vartype, context, count(*) FROM pg_settings GROUP BY 1, 2 ORDER BY 1, 2;
SELECT name, enumvals FROM pg_settings WHERE vartype = 'enum' ORDER BY name;
SELECT enumvals[1], array_length(enumvals, 1) FROM pg_settings WHERE name = 'wal_level';
SELECT name FROM pg_settings WHERE name LIKE 'enable%' ORDER BY name;
SELECT name, setting, unit FROM pg_settings WHERE unit IS NOT NULL AND name NOT IN ('shared_buffers', 'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_user_timeout') ORDER BY unit, name;
-- SHOW of settings RockLake only keeps
SHOW random_page_cost;
SHOW wal_level;
SHOW work_mem;
SHOW maintenance_work_mem;
SHOW effective_cache_size;
SHOW checkpoint_timeout;
SHOW autovacuum_naptime;
SHOW vacuum_cost_delay;
SHOW autovacuum_vacuum_cost_delay;
SHOW jit;
SHOW log_file_mode;
SHOW block_size;
SHOW wal_segment_size;
SHOW server_version_num;
SHOW is_superuser;
SHOW lc_collate;
SHOW max_wal_size;
SHOW WORK_MEM;
SHOW "work_mem";
SHOW sort_mem;
SHOW vacuum_mem;
SELECT current_setting('sort_mem'), current_setting('Random_Page_Cost'), current_setting('default_statistics_target');
-- settings a role that is not a superuser may not read
SHOW data_directory;
SHOW config_file;
SELECT current_setting('hba_file');
SELECT current_setting('ident_file', true);
SELECT count(*) FROM pg_settings WHERE name IN ('data_directory', 'config_file', 'hba_file', 'unix_socket_directories', 'shared_preload_libraries');
SHOW no_such_setting;
SHOW "no.such_setting";
SELECT current_setting('no.such_setting', true) IS NULL;
-- psql's \dconfig (no pattern: what differs from its boot value) and \dconfig PATTERN
SELECT s.name AS "Parameter", pg_catalog.current_setting(s.name) AS "Value" FROM pg_catalog.pg_settings s WHERE pg_catalog.lower(s.name) OPERATOR(pg_catalog.~) '^(work_mem)$' ORDER BY 1;
SELECT s.name AS "Parameter", pg_catalog.current_setting(s.name) AS "Value" FROM pg_catalog.pg_settings s WHERE pg_catalog.lower(s.name) OPERATOR(pg_catalog.~) '^(enable_.*)$' ORDER BY 1;
SELECT s.name AS "Parameter", pg_catalog.current_setting(s.name) AS "Value" FROM pg_catalog.pg_settings s WHERE s.source <> 'default' AND s.setting IS DISTINCT FROM s.boot_val AND s.name NOT IN ('port', 'listen_addresses', 'max_connections', 'shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes', 'application_name', 'client_encoding') ORDER BY 1;

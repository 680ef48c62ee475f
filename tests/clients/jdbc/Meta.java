import java.sql.*;
import java.util.*;

/*
 * Meta.java — what the PostgreSQL JDBC driver's DatabaseMetaData answers
 * about a catalog holding DuckLake's tables (tests/clients/test_jdbc_metadata.py
 * runs it against PostgreSQL 15 and against RockLake and compares): one
 * "## call (rows)" block per call, its rows sorted, or "## call ERROR
 * SQLSTATE". The database's name is printed as DB.
 */
public class Meta {
    static String db;

    static void dump(String what, ResultSet rs, Set<String> skip) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                String col = md.getColumnLabel(i);
                if (skip.contains(col)) continue;
                String v = rs.getString(i);
                b.append(col).append('=').append(db.equals(v) ? "DB" : v).append(' ');
            }
            rows.add(b.toString());
        }
        Collections.sort(rows);
        System.out.println("## " + what + " (" + rows.size() + ")");
        for (String r : rows) System.out.println("  " + r);
    }
    interface Step { void run() throws Exception; }
    static void step(String what, Step s) {
        try { s.run(); }
        catch (SQLException e) { System.out.println("## " + what + " ERROR " + e.getSQLState()); }
        catch (Exception e) { System.out.println("## " + what + " ERROR " + e.getClass().getSimpleName()); }
    }
    public static void main(String[] a) throws Exception {
        Connection c = DriverManager.getConnection(a[0]);
        db = c.getCatalog();
        DatabaseMetaData m = c.getMetaData();
        Set<String> none = Set.of();
        step("schemas", () -> dump("schemas", m.getSchemas(), none));
        step("catalogs", () -> dump("catalogs", m.getCatalogs(), none));
        step("catalog", () -> System.out.println("## catalog " + (db.equals(c.getCatalog()) ? "DB" : c.getCatalog())));
        step("tabletypes", () -> dump("tabletypes", m.getTableTypes(), none));
        step("tables", () -> dump("tables", m.getTables(null, "public", "%", new String[]{"TABLE", "VIEW"}), none));
        step("columns", () -> dump("columns", m.getColumns(null, "public", "ducklake_%", "%"), none));
        step("columns defaulted", () -> dump("columns defaulted", m.getColumns(null, "public", "defaulted", "%"), none));
        step("pk", () -> dump("pk", m.getPrimaryKeys(null, "public", "ducklake_snapshot"), none));
        step("imported", () -> dump("imported", m.getImportedKeys(null, "public", "ducklake_snapshot"), none));
        step("exported", () -> dump("exported", m.getExportedKeys(null, "public", "ducklake_snapshot"), none));
        step("index", () -> dump("index", m.getIndexInfo(null, "public", "ducklake_snapshot", false, false), none));
        // a person's constraints: a composite primary key, UNIQUE constraints and indexes
        step("pk notes", () -> dump("pk notes", m.getPrimaryKeys(null, "public", "notes"), none));
        step("index notes", () -> dump("index notes", m.getIndexInfo(null, "public", "notes", false, false), none));
        step("unique notes", () -> dump("unique notes", m.getIndexInfo(null, "public", "notes", true, false), none));
        // FOREIGN KEYs: a composite one with its actions, one to its own table
        step("imported note_refs", () -> dump("imported note_refs", m.getImportedKeys(null, "public", "note_refs"), none));
        step("exported notes", () -> dump("exported notes", m.getExportedKeys(null, "public", "notes"), none));
        step("cross notes", () -> dump("cross notes", m.getCrossReference(null, "public", "notes", null, "public", "note_refs"), none));
        step("bestrow notes", () -> dump("bestrow notes", m.getBestRowIdentifier(null, "public", "notes", DatabaseMetaData.bestRowSession, true), none));
        step("typeinfo", () -> dump("typeinfo", m.getTypeInfo(), none));
        step("procedures", () -> dump("procedures", m.getProcedures(null, "public", "%"), none));
        step("functions", () -> dump("functions", m.getFunctions(null, "public", "%"), none));
        step("bestrow", () -> dump("bestrow", m.getBestRowIdentifier(null, "public", "ducklake_snapshot", DatabaseMetaData.bestRowSession, true), none));
        step("privileges", () -> dump("privileges", m.getTablePrivileges(null, "public", "ducklake_snapshot"), none));
        step("udts", () -> dump("udts", m.getUDTs(null, "public", "%", null), none));
        step("info", () -> System.out.println("## info " + m.getDatabaseProductName() + " " + m.getDatabaseMajorVersion() + " " + m.getIdentifierQuoteString() + " " + m.supportsTransactions() + " " + m.getDefaultTransactionIsolation() + " " + m.getUserName()));
        step("query", () -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT snapshot_id, snapshot_time FROM ducklake_snapshot ORDER BY 1")) {
                ResultSetMetaData md = rs.getMetaData();
                System.out.println("## query " + md.getColumnTypeName(1) + " " + md.getColumnTypeName(2) + " " + md.getTableName(1) + " " + md.isNullable(1) + " " + md.isAutoIncrement(1) + " " + md.getPrecision(2));
            }
        });
        // the JVM's zone (the test runs it in America/New_York) is the
        // session's: JDBC sends it as the startup packet's TimeZone
        step("timezone", () -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT current_setting('TimeZone'), '2024-07-01 12:00+00'::timestamptz::text, "
                    + "'2024-03-10 02:30'::timestamptz, '2024-11-03 01:30'::timestamptz::text")) {
                rs.next();
                System.out.println("## timezone " + rs.getString(1) + " | " + rs.getString(2) + " | "
                        + rs.getTimestamp(3).getTime() + " | " + rs.getString(4));
            }
        });
        c.close();
    }
}

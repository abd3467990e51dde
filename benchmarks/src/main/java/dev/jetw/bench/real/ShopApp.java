package dev.jetw.bench.real;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * A small shop on third-party libraries from Maven Central, the real workload of the benchmarks
 * (issue 11): an embedded H2 database (JDBC, SQL parsing, MVStore) and Jackson (object mapping,
 * JSON text). Every round does the same thing to the same data, so every round has the same
 * checksum: it inserts {@value #ORDERS} orders with their lines, runs a report (join and group by),
 * maps the rows to objects, writes them as JSON and reads the JSON back, then deletes the orders,
 * provoking and catching one SQL error on the way (a real application's error path).
 *
 * <p>Modes: {@code ShopApp ROUNDS [LEAD]} runs ROUNDS rounds from start-up and prints
 * {@code rounds R ms M cpu C checksum X} (with LEAD, first a {@code lead ...} line for the LEAD leading rounds,
 * then the line of the rest), then {@code process cpu N}; {@code ShopApp serve} reads commands from stdin
 * ({@code pid}, {@code run R}, {@code cpu}, {@code quit}), one reply line each, so that a launcher can warm
 * the application, attach the agent and measure the same JVM (see RealWorkloadRun).
 */
public final class ShopApp {

    static final int ORDERS = 200;
    static final int PRODUCTS = 50;

    private final Connection db;
    private final ObjectMapper json = new ObjectMapper();

    /** One row of the report, as Jackson maps it. */
    public static final class ProductSales {
        public String product;
        public String category;
        public long quantity;
        public long revenueCents;
        public List<Integer> orderIds = new ArrayList<>();
    }

    ShopApp() throws SQLException {
        // -Dshop.db=DIR: an H2 database in files under DIR (every commit writes the file: BENCHMARKS.md §18), else in memory.
        String dir = System.getProperty("shop.db");
        db = DriverManager.getConnection(dir == null ? "jdbc:h2:mem:shop" + System.nanoTime() + ";DB_CLOSE_DELAY=-1"
                : "jdbc:h2:file:" + dir + "/shop" + System.nanoTime());
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE product (id INT PRIMARY KEY, name VARCHAR(40), category VARCHAR(20), price_cents BIGINT)");
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer VARCHAR(40), placed DATE)");
            s.execute("CREATE TABLE line (order_id INT, product_id INT, quantity INT, "
                    + "FOREIGN KEY (order_id) REFERENCES orders(id), FOREIGN KEY (product_id) REFERENCES product(id))");
            s.execute("CREATE INDEX line_order ON line(order_id)");
        }
        try (PreparedStatement p = db.prepareStatement("INSERT INTO product VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < PRODUCTS; i++) {
                p.setInt(1, i);
                p.setString(2, "product-" + i);
                p.setString(3, "category-" + (i % 7));
                p.setLong(4, 100 + (i * 37L) % 900);
                p.executeUpdate();
            }
        }
    }

    /** One round; returns its checksum (the same for every round). */
    long round() throws Exception {
        try (PreparedStatement order = db.prepareStatement("INSERT INTO orders VALUES (?, ?, DATEADD(DAY, CAST(? AS INT), DATE '2026-01-01'))");
             PreparedStatement line = db.prepareStatement("INSERT INTO line VALUES (?, ?, ?)")) {
            for (int o = 0; o < ORDERS; o++) {
                order.setInt(1, o);
                order.setString(2, "customer-" + (o % 23));
                order.setInt(3, o % 28);
                order.executeUpdate();
                for (int l = 0; l < 1 + o % 4; l++) {
                    line.setInt(1, o);
                    line.setInt(2, (o * 7 + l * 13) % PRODUCTS);
                    line.setInt(3, 1 + (o + l) % 5);
                    line.executeUpdate();
                }
            }
        }
        Map<String, ProductSales> report = new LinkedHashMap<>();
        try (Statement s = db.createStatement();
             ResultSet r = s.executeQuery("SELECT p.name, p.category, SUM(l.quantity), SUM(l.quantity * p.price_cents), "
                     + "LISTAGG(CAST(l.order_id AS VARCHAR), ',') WITHIN GROUP (ORDER BY l.order_id) "
                     + "FROM line l JOIN product p ON p.id = l.product_id GROUP BY p.name, p.category ORDER BY p.name")) {
            while (r.next()) {
                ProductSales ps = new ProductSales();
                ps.product = r.getString(1);
                ps.category = r.getString(2);
                ps.quantity = r.getLong(3);
                ps.revenueCents = r.getLong(4);
                for (String id : r.getString(5).split(",")) {
                    ps.orderIds.add(Integer.parseInt(id));
                }
                report.put(ps.product, ps);
            }
        }
        try (Statement s = db.createStatement()) {
            s.executeQuery("SELECT no_such_column FROM orders");
            throw new IllegalStateException("the bad query succeeded");
        } catch (SQLException expected) {
            // the error path of a real application: H2 builds and throws the exception
        }
        byte[] text = json.writeValueAsBytes(report.values());
        JsonNode back = json.readTree(text);
        long quantity = 0;
        for (JsonNode n : back) {
            quantity += n.get("quantity").asLong();
        }
        try (Statement s = db.createStatement()) {
            s.executeUpdate("DELETE FROM line");
            s.executeUpdate("DELETE FROM orders");
        }
        CRC32 crc = new CRC32();
        crc.update(text);
        return crc.getValue() ^ quantity << 32;
    }

    /** Runs {@code rounds} rounds; fails if they disagree on the checksum. */
    long rounds(int rounds) throws Exception {
        long checksum = round();
        for (int i = 1; i < rounds; i++) {
            long c = round();
            if (c != checksum) {
                throw new IllegalStateException("round " + i + " checksum " + Long.toHexString(c) + " != " + Long.toHexString(checksum));
            }
        }
        return checksum;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("serve")) {
            serve();
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int lead = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        ShopApp app = new ShopApp();
        if (lead > 0) {
            // The leading rounds (class loading, JIT, the agent's transformation) apart from the steady rest.
            long checksum = app.rounds(lead);
            System.out.println("lead " + result(lead, System.nanoTime() - t0, processCpuNanos() - cpu0, checksum));
            t0 = System.nanoTime();
            cpu0 = processCpuNanos();
        }
        long checksum = app.rounds(rounds - lead);
        System.out.println(result(rounds - lead, System.nanoTime() - t0, processCpuNanos() - cpu0, checksum));
        System.out.println(processCpuLine());
    }

    /** "process cpu N": CPU ms of the whole process since the JVM started (its start-up and the agent's premain too). */
    private static String processCpuLine() {
        return "process cpu " + processCpuNanos() / 1_000_000;
    }

    /**
     * The result line. {@code cpu}: CPU time of the whole process (every thread: the agent's and the
     * JIT's too) over the rounds, in ms: less disturbed than the wall time when other processes
     * share the machine's CPUs.
     */
    private static String result(int rounds, long nanos, long cpuNanos, long checksum) {
        return "rounds " + rounds + " ms " + nanos / 1_000_000 + " cpu " + cpuNanos / 1_000_000 + " checksum " + Long.toHexString(checksum);
    }

    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : 0L;
    }

    private static void serve() throws Exception {
        ShopApp app = new ShopApp();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String cmd = in.readLine(); cmd != null && !cmd.equals("quit"); cmd = in.readLine()) {
            if (cmd.equals("pid")) {
                System.out.println("pid " + ProcessHandle.current().pid());
            } else if (cmd.equals("cpu")) {
                System.out.println(processCpuLine());
            } else if (cmd.startsWith("run ")) {
                int rounds = Integer.parseInt(cmd.substring(4));
                long t0 = System.nanoTime();
                long cpu0 = processCpuNanos();
                long checksum = app.rounds(rounds);
                System.out.println(result(rounds, System.nanoTime() - t0, processCpuNanos() - cpu0, checksum));
            } else {
                System.out.println("unknown command " + cmd);
            }
            System.out.flush();
        }
    }
}

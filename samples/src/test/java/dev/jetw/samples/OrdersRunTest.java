package dev.jetw.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.samples.orders.Order;
import dev.jetw.samples.load.OrderGenerator;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --orders N, without the agent: the report's counts are exactly what the seed's orders call for. */
class OrdersRunTest {
    private static final Pattern COUNTS = Pattern.compile(
            "Processed (\\d+) orders .*: (\\d+) ok, (\\d+) rejected .*, (\\d+) failed .*holds (\\d+) lines\\.");

    @TempDir
    Path dir;

    @Test
    void seed42RunsTwoHundredOrdersWithTheSeedsExactCounts() throws Exception {
        Path journal = dir.resolve("orders.journal");
        Run run = run("--orders", "200", "--seed", "42", "--clients", "4", "--workers", "3", "--journal", journal.toString());

        assertEquals(0, run.exitCode, run.err);
        Matcher m = COUNTS.matcher(run.out);
        assertTrue(m.find(), "report paragraph missing in:\n" + run.out);
        long ok = Long.parseLong(m.group(2));
        long rejected = Long.parseLong(m.group(3));
        long failed = Long.parseLong(m.group(4));
        assertEquals(200, Long.parseLong(m.group(1)));
        // Pinned for seed 42, so a change of the order mix is noticed.
        assertEquals(177, ok);
        assertEquals(13, rejected);
        assertEquals(10, failed);
        assertEquals(200, ok + rejected + failed);
        assertEquals(ok, Long.parseLong(m.group(5)));

        List<String> lines = Files.readAllLines(journal, StandardCharsets.UTF_8);
        assertEquals(ok, lines.size());
        assertEquals(expectedAcceptedIds(42, 200), journaledIds(lines),
                "the journal must hold exactly the orders that are valid and paid");
        for (int i = 0; i < lines.size(); i++) {
            assertEquals(String.valueOf(i + 1), lines.get(i).split("\t")[0], "journal sequence numbers are 1..n in file order");
        }
    }

    @Test
    void countsFollowTheSeedWhateverTheThreadCounts() throws Exception {
        Path journal = dir.resolve("other.journal");
        Run run = run("--orders", "150", "--seed", "7", "--clients", "7", "--workers", "2", "--no-fsync",
                "--journal", journal.toString());

        assertEquals(0, run.exitCode, run.err);
        Matcher m = COUNTS.matcher(run.out);
        assertTrue(m.find(), run.out);
        Set<Long> expected = expectedAcceptedIds(7, 150);
        long[] outcome = expectedOutcome(7, 150);
        assertEquals(outcome[0], Long.parseLong(m.group(2)));
        assertEquals(outcome[1], Long.parseLong(m.group(3)));
        assertEquals(outcome[2], Long.parseLong(m.group(4)));
        assertEquals(expected, journaledIds(Files.readAllLines(journal, StandardCharsets.UTF_8)));
    }

    @Test
    void badOptionIsOneLineNamingItAndExitCode2() throws Exception {
        Run run = run("--orders", "lots");
        assertEquals(2, run.exitCode);
        assertEquals("jetw-samples: option --orders: 'lots' is not a whole number; allowed: 1..10000000 (--help for usage)",
                run.err.trim());

        Run neither = run("--workers", "2");
        assertEquals(2, neither.exitCode);
        assertTrue(neither.err.contains("give exactly one of --orders N or --serve"), neither.err);
    }

    /**
     * The test's own reading of the business rules (catalog SKU-1001..SKU-1020, quantity 1..50, the
     * declined test card), applied to the generated orders: {ok, rejected, failed}.
     */
    static long[] expectedOutcome(long seed, int n) {
        long[] counts = new long[3];
        OrderGenerator generator = new OrderGenerator(seed);
        for (int k = 0; k < n; k++) {
            counts[classify(generator.order(k))]++;
        }
        return counts;
    }

    static Set<Long> expectedAcceptedIds(long seed, int n) {
        Set<Long> ids = new TreeSet<>();
        OrderGenerator generator = new OrderGenerator(seed);
        for (int k = 0; k < n; k++) {
            Order order = generator.order(k);
            if (classify(order) == 0) {
                ids.add(order.id());
            }
        }
        return ids;
    }

    private static int classify(Order order) {
        String sku = order.sku();
        boolean knownSku = sku.startsWith("SKU-") && sku.length() == 8
                && Integer.parseInt(sku.substring(4)) >= 1001 && Integer.parseInt(sku.substring(4)) <= 1020;
        if (!knownSku || order.quantity() < 1 || order.quantity() > 50) {
            return 1;
        }
        return "4000-0000-0000-0002".equals(order.card()) ? 2 : 0;
    }

    private static Set<Long> journaledIds(List<String> lines) {
        Set<Long> ids = new TreeSet<>();
        for (String line : lines) {
            ids.add(Long.parseLong(line.split("\t")[1]));
        }
        return ids;
    }

    private static Run run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderGatewayApp.run(args, new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        return new Run(code, out.toString("UTF-8"), err.toString("UTF-8"));
    }

    private static final class Run {
        final int exitCode;
        final String out;
        final String err;

        Run(int exitCode, String out, String err) {
            this.exitCode = exitCode;
            this.out = out;
            this.err = err;
        }
    }
}

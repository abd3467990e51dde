package dev.jetw.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.samples.gateway.Protocol;
import dev.jetw.samples.load.LoadResult;
import dev.jetw.samples.orders.Order;
import dev.jetw.samples.orders.PaymentService;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's socket behaviour: loopback only, the protocol's answers, and --serve's stop paths. */
class GatewayTest {
    private static final Duration GENEROUS = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void bindsOnly127001() throws Exception {
        try (OrderService service = OrderService.start(options("--orders", "1"))) {
            InetSocketAddress address = service.gateway().address();
            assertEquals("127.0.0.1", address.getAddress().getHostAddress());
            InetAddress other = nonLoopbackAddress();
            if (other != null) {
                // Bound to 127.0.0.1 only: the same port on a real interface must refuse the connection.
                assertThrows(IOException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(other, address.getPort()), 10_000);
                    }
                }, "the gateway must not be reachable on " + other);
            }
        }
    }

    @Test
    void answersRejectedFailedAndErrorAndTheWorkerSurvivesAnEscapedException() throws Exception {
        assertTimeoutPreemptively(GENEROUS, () -> {
            try (OrderService service = OrderService.start(options("--orders", "1", "--workers", "1"));
                 Client client = new Client(service.gateway().address())) {
                String declined = client.send(Protocol.orderLine(new Order(1, "C001", "SKU-1001", 2, PaymentService.DECLINED_CARD)));
                assertTrue(declined.startsWith("FAILED 1 PaymentDeclinedException: card declined for order 1"), declined);

                String unknown = client.send(Protocol.orderLine(new Order(2, "C001", "SKU-9999", 2, "4111-1111-1111-1111")));
                assertEquals("REJECTED 2 unknown SKU SKU-9999", unknown);

                assertTrue(client.send("ORDER x").startsWith("ERROR expected 'ORDER id customer sku quantity card'"));

                // With a single worker, this answer proves the worker outlived the escaped exception.
                String ok = client.send(Protocol.orderLine(new Order(3, "C001", "SKU-1001", 2, "4111-1111-1111-1111")));
                assertEquals("OK 3 949 1", ok, "C001 is a loyalty customer: 998 cents less 5% (49) is 949");

                assertEquals(1, service.gateway().stats().ok());
                assertEquals(1, service.gateway().stats().rejected());
                assertEquals(1, service.gateway().stats().failed());
                assertEquals(1, service.gateway().stats().badRequests());
                assertEquals(1, service.journal().lines());
            }
        });
    }

    @Test
    void serveStopsOnAShutdownLineOverTheSocket() throws Exception {
        assertTimeoutPreemptively(GENEROUS, () -> {
            ServeRun run = ServeRun.start(options("--serve", "--interval-ms", "5", "--journal", dir.resolve("j").toString()));
            InetSocketAddress address = run.address();
            ExecutorService waiter = Executors.newSingleThreadExecutor();
            try {
                Future<LoadResult> result = waiter.submit(run::awaitStopAndClose);
                waitForJournal(run, 3);
                assertFalse(result.isDone(), "--serve must keep running until told to stop");
                try (Client client = new Client(address)) {
                    assertEquals(Protocol.BYE, client.send(Protocol.SHUTDOWN));
                }
                LoadResult tally = result.get(GENEROUS.getSeconds(), TimeUnit.SECONDS);
                assertTrue(run.service().gateway().isClosed());
                assertEquals(0, tally.errors(), String.valueOf(tally.firstError()));
                assertEquals(run.service().journal().lines(), tally.ok(), "every OK the clients saw is in the journal");
                assertThrows(ConnectException.class, () -> new Socket(address.getAddress(), address.getPort()).close());
            } finally {
                waiter.shutdownNow();
            }
        });
    }

    @Test
    void serveStopsWhenAStopIsRequestedInProcess() throws Exception {
        assertTimeoutPreemptively(GENEROUS, () -> {
            ServeRun run = ServeRun.start(options("--serve", "--interval-ms", "5"));
            waitForJournal(run, 1);
            run.requestStop();
            LoadResult tally = run.awaitStopAndClose();
            assertTrue(run.service().gateway().isClosed());
            assertTrue(tally.ok() >= 1);
        });
    }

    private static void waitForJournal(ServeRun run, long lines) throws InterruptedException {
        // Polling a counter for progress (not timing): bounded by the test's preemptive timeout.
        while (run.service().journal().lines() < lines) {
            Thread.sleep(10);
        }
    }

    private AppOptions options(String... args) {
        return AppOptions.parse(args);
    }

    private static InetAddress nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return a;
                }
            }
        }
        return null;
    }

    /** A blocking line client for the gateway's protocol. */
    static final class Client implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final BufferedReader in;

        Client(InetSocketAddress address) throws IOException {
            socket = new Socket(address.getAddress(), address.getPort());
            socket.setSoTimeout(60_000);
            out = socket.getOutputStream();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        String send(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return in.readLine();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}

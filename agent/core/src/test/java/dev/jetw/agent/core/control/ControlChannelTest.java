package dev.jetw.agent.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The control channel end to end over loopback: token check, long arguments, size caps, a failing handler,
 * and other local users' connections (idle, slow, malformed, a flood) never holding up a request.
 */
class ControlChannelTest {

    private final List<String> handled = Collections.synchronizedList(new ArrayList<>());
    private ControlChannel channel;

    @BeforeEach
    void open() throws IOException {
        channel = ControlChannel.open((command, argument) -> {
            handled.add(command + ":" + argument.length());
            if (command.equals("boom")) {
                throw new IllegalStateException("handler failed");
            }
            return "reply to " + command + " with " + argument.length() + " chars";
        });
    }

    @AfterEach
    void close() throws IOException {
        channel.close();
    }

    /**
     * HotSpot waits up to 300 ms at exit for each thread still in native code; the channel's thread waits in the
     * selector (native), so a shutdown hook closes the channel and the thread leaves before the JVM's exit waits.
     */
    @Test
    void theShutdownHookClosesTheChannelAndItsThreadEnds() throws Exception {
        Thread hook = channel.closer();
        assertTrue(hook != null && !hook.isAlive(), "a shutdown hook is registered, not started: " + hook);
        assertTrue(channel.serving().isAlive());
        hook.run(); // what the JVM does at exit
        channel.serving().join(30_000);
        assertFalse(channel.serving().isAlive(), "the channel's thread still waits in the selector");
        assertThrows(IOException.class, () -> ControlClient.request(channel.address(), "status", ""));
    }

    @Test
    void aRequestWithTheTokenReachesTheHandlerWithItsWholeArgument() throws IOException {
        String longOptions = "include=" + "com.acme.p".repeat(2_500); // 25 KB, far over the attach protocol's limit
        assertEquals("reply to attach with " + longOptions.length() + " chars", ControlClient.request(channel.address(), "attach", longOptions));
        assertEquals(List.of("attach:" + longOptions.length()), handled);
    }

    @Test
    void aWrongTokenIsRefusedAndNothingRuns() throws IOException {
        String[] parts = channel.address().split(" ");
        String forged = parts[0] + " " + parts[1] + " " + "0".repeat(64);
        assertEquals("jetw: control: wrong token; nothing done", ControlClient.request(forged, "detach", ""));
        assertTrue(handled.isEmpty(), handled.toString());
    }

    @Test
    void anOversizedArgumentIsRefusedWithoutRunningAndTheChannelGoesOn() throws IOException {
        String[] parts = channel.address().split(" ");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(parts[1]))) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(ControlProtocol.MAGIC);
            out.writeInt(ControlProtocol.VERSION);
            out.writeInt(parts[2].length());
            out.writeBytes(parts[2]);
            out.writeInt(6);
            out.writeBytes("attach");
            out.writeInt(ControlProtocol.MAX_ARGUMENT + 1);
            out.flush();
            // The agent closes the connection without a reply.
            assertThrows(IOException.class, () -> new DataInputStream(socket.getInputStream()).readInt());
        }
        assertTrue(handled.isEmpty(), handled.toString());
        assertEquals("reply to status with 0 chars", ControlClient.request(channel.address(), "status", ""));
    }

    @Test
    void aFailingHandlerBecomesAFailureReply() throws IOException {
        assertEquals("jetw: boom: java.lang.IllegalStateException: handler failed", ControlClient.request(channel.address(), "boom", ""));
    }

    @Test
    void aClientOfAnotherProtocolVersionIsToldSo() {
        String[] parts = channel.address().split(" ");
        IOException e = assertThrows(IOException.class, () -> ControlClient.request("2 " + parts[1] + " " + parts[2], "status", ""));
        assertTrue(e.getMessage().contains("this tool speaks version 1"), e.getMessage());
    }

    /** What a stalling or flooding local user may cost a request: the channel promises 1 s, 2 s allows for a busy 2-core machine. */
    private static final long BOUND_MILLIS = 2_000;

    @Test
    void anIdleConnectionDoesNotHoldUpStatus() throws Exception {
        try (Socket idle = new Socket(InetAddress.getLoopbackAddress(), port())) {
            Thread.sleep(100); // the channel has accepted it
            long millis = timedStatus();
            System.out.println("status with 1 idle connection: " + millis + " ms");
            assertTrue(millis < BOUND_MILLIS, millis + " ms");
        }
    }

    @Test
    void aStalledRequestIsClosedAfterTheReadDeadline() throws Exception {
        try (Socket slow = new Socket(InetAddress.getLoopbackAddress(), port())) {
            DataOutputStream out = new DataOutputStream(slow.getOutputStream());
            out.writeInt(ControlProtocol.MAGIC); // and then nothing
            out.flush();
            slow.setSoTimeout(10_000);
            long start = System.nanoTime();
            assertEquals(-1, slow.getInputStream().read(), "closed without a reply");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < ControlChannel.REQUEST_DEADLINE_MILLIS + BOUND_MILLIS, millis + " ms");
        }
        assertTrue(handled.isEmpty(), handled.toString());
    }

    @Test
    void aRequestArrivingByteByByteIsServed() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ControlProtocol.writeRequest(new DataOutputStream(bytes), channel.address().split(" ")[2], "status", "");
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port())) {
            s.setTcpNoDelay(true);
            for (byte b : bytes.toByteArray()) {
                s.getOutputStream().write(b);
                s.getOutputStream().flush();
                Thread.sleep(2);
            }
            assertEquals("reply to status with 0 chars", ControlProtocol.readReply(new DataInputStream(s.getInputStream())));
        }
    }

    @Test
    void fortyThreadsFloodingMalformedSlowAndIdleRequestsDoNotHoldUpStatus() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger connections = new AtomicInteger();
        ExecutorService flood = Executors.newFixedThreadPool(40);
        List<Long> millis = new ArrayList<>();
        try {
            for (int t = 0; t < 40; t++) {
                int kind = t % 4;
                long seed = t;
                flood.execute(() -> hostileClient(kind, new Random(seed), stop, connections));
            }
            Thread.sleep(300);
            for (int i = 0; i < 10; i++) {
                millis.add(timedStatus());
                Thread.sleep(50);
            }
        } finally {
            stop.set(true);
            flood.shutdownNow();
            flood.awaitTermination(10, TimeUnit.SECONDS);
        }
        long worst = Collections.max(millis);
        System.out.println("status under a 40-thread flood (" + connections.get() + " hostile connections): " + millis + " ms, worst " + worst);
        assertTrue(worst < BOUND_MILLIS, millis.toString());
        assertEquals(10, handled.size(), "only the status requests ran: " + handled);
    }

    /** One local user's thread: garbage, a slow trickle, idle connections or a wrong token, again and again. */
    private void hostileClient(int kind, Random random, AtomicBoolean stop, AtomicInteger connections) {
        while (!stop.get()) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port())) {
                connections.incrementAndGet();
                s.setSoTimeout(3_000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                switch (kind) {
                    case 0: { // malformed: random bytes
                        byte[] junk = new byte[1 + random.nextInt(64)];
                        random.nextBytes(junk);
                        out.write(junk);
                        out.flush();
                        s.getInputStream().read();
                        break;
                    }
                    case 1: // slow: a byte at a time
                        out.writeByte(0x4A);
                        out.flush();
                        for (int i = 0; i < 20 && !stop.get(); i++) {
                            Thread.sleep(100);
                            out.writeByte(0x45);
                            out.flush();
                        }
                        break;
                    case 2: // idle until closed
                        s.getInputStream().read();
                        break;
                    default: // a well-formed request with a wrong token and a huge declared argument
                        out.writeInt(ControlProtocol.MAGIC);
                        out.writeInt(ControlProtocol.VERSION);
                        out.writeInt(64);
                        out.writeBytes("0".repeat(64));
                        out.writeInt(6);
                        out.writeBytes("detach");
                        out.writeInt(ControlProtocol.MAX_ARGUMENT);
                        out.flush();
                        s.getInputStream().read();
                        break;
                }
            } catch (IOException e) {
                // closed by the channel: what it should do to such a client
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private long timedStatus() throws IOException {
        long start = System.nanoTime();
        assertEquals("reply to status with 0 chars", ControlClient.request(channel.address(), "status", ""));
        return (System.nanoTime() - start) / 1_000_000;
    }

    private int port() {
        return Integer.parseInt(channel.address().split(" ")[1]);
    }
}

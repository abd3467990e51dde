package dev.jetw.samples.load;

import dev.jetw.samples.gateway.Protocol;
import dev.jetw.samples.orders.Order;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client threads that send orders to the gateway over TCP, one order in flight per client, and count
 * the answers. Orders are numbered 0..total-1 from a shared counter; what order k contains depends only
 * on the seed (see {@link OrderGenerator}).
 */
public final class LoadGenerator {
    /** A reply slower than this is counted as an error instead of hanging the run. */
    private static final int REPLY_TIMEOUT_MILLIS = 60_000;

    private final InetSocketAddress gateway;
    private final OrderGenerator orders;
    private final int clients;
    private final long totalOrders;
    private final long pauseMillis;

    private final AtomicLong nextOrder = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final List<Thread> threads = new ArrayList<>();
    private long startNanos;

    /**
     * @param totalOrders orders to send in all (Long.MAX_VALUE: until {@link #stop})
     * @param pauseMillis pause of each client between orders (0: as fast as answers come)
     */
    public LoadGenerator(InetSocketAddress gateway, OrderGenerator orders, int clients, long totalOrders,
            long pauseMillis) {
        this.gateway = gateway;
        this.orders = orders;
        this.clients = clients;
        this.totalOrders = totalOrders;
        this.pauseMillis = pauseMillis;
    }

    /** Sends all the orders and returns when every client is done. */
    public LoadResult run() throws InterruptedException {
        start();
        return awaitResult();
    }

    public synchronized void start() {
        startNanos = System.nanoTime();
        for (int i = 1; i <= clients; i++) {
            Thread client = new Thread(this::sendOrders, "load-client-" + i);
            client.setDaemon(true);
            threads.add(client);
            client.start();
        }
    }

    /** Makes every client stop after its current order. */
    public void stop() {
        stopped.countDown();
    }

    /** Waits for the clients to finish (all orders sent, or stopped) and returns the tally. */
    public LoadResult awaitResult() throws InterruptedException {
        List<Thread> started;
        synchronized (this) {
            started = new ArrayList<>(threads);
        }
        for (Thread client : started) {
            client.join();
        }
        return new LoadResult(ok.get(), rejected.get(), failed.get(), errors.get(), System.nanoTime() - startNanos,
                firstError.get());
    }

    private void sendOrders() {
        try (Socket socket = new Socket()) {
            socket.connect(gateway, REPLY_TIMEOUT_MILLIS);
            socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            while (stopped.getCount() > 0) {
                long k = nextOrder.getAndIncrement();
                if (k >= totalOrders) {
                    return;
                }
                String reply = send(orders.order(k), out, in);
                if (reply == null) {
                    error("gateway closed the connection");
                    return;
                }
                count(reply);
                if (pauseMillis > 0 && stopped.await(pauseMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (IOException e) {
            if (stopped.getCount() > 0) {
                error(Thread.currentThread().getName() + ": " + e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String send(Order order, OutputStream out, BufferedReader in) throws IOException {
        out.write((Protocol.orderLine(order) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return in.readLine();
    }

    private void count(String reply) {
        String kind = Protocol.kind(reply);
        if (Protocol.OK.equals(kind)) {
            ok.incrementAndGet();
        } else if (Protocol.REJECTED.equals(kind)) {
            rejected.incrementAndGet();
        } else if (Protocol.FAILED.equals(kind)) {
            failed.incrementAndGet();
        } else {
            error("unexpected reply '" + reply + "'");
        }
    }

    private void error(String message) {
        errors.incrementAndGet();
        firstError.compareAndSet(null, message);
    }
}

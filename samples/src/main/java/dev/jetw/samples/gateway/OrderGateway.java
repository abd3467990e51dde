package dev.jetw.samples.gateway;

import dev.jetw.samples.orders.OrderProcessor;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order gateway's socket plumbing: a TCP server on 127.0.0.1 (never another interface). One thread
 * accepts, one thread per connection reads lines and passes each to {@link OrderIntake}; replies are
 * written by the workers. Its loops live as long as the server or a connection, which is why the demo's
 * trace leaves this class out.
 */
public final class OrderGateway implements Closeable {
    /** How long close() waits for orders already in the pool. */
    private static final long DRAIN_SECONDS = 30;
    private static final int MAX_ACCEPT_FAILURES_IN_A_ROW = 100;

    private final ServerSocket server;
    private final OrderWorkerPool pool;
    private final OrderIntake intake;
    private final GatewayStats stats = new GatewayStats();
    private final Set<ClientConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connectionNumber = new AtomicInteger(1);
    private final CountDownLatch shutdownRequested = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread acceptor;

    private OrderGateway(ServerSocket server, OrderProcessor processor, int workers) {
        this.server = server;
        this.pool = new OrderWorkerPool(workers);
        this.intake = new OrderIntake(processor, pool, stats, this::requestShutdown);
        this.acceptor = new Thread(this::acceptConnections, "gateway-acceptor");
        this.acceptor.setDaemon(true);
    }

    /** Binds 127.0.0.1:{@code port} (0 = an ephemeral port) and starts accepting. */
    public static OrderGateway start(OrderProcessor processor, int workers, int port) throws IOException {
        ServerSocket server = new ServerSocket();
        try {
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 50);
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        OrderGateway gateway = new OrderGateway(server, processor, workers);
        gateway.acceptor.start();
        return gateway;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    public GatewayStats stats() {
        return stats;
    }

    /** Asks whoever waits in {@link #awaitShutdownRequest} to stop the service. */
    public void requestShutdown() {
        shutdownRequested.countDown();
    }

    public void awaitShutdownRequest() throws InterruptedException {
        shutdownRequested.await();
    }

    public boolean isShutdownRequested() {
        return shutdownRequested.getCount() == 0;
    }

    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Stops accepting, lets the orders already in the pool finish and answer, then closes every
     * connection. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        requestShutdown();
        try {
            server.close();
        } catch (IOException ignored) {
            // Already closed.
        }
        pool.shutdown();
        try {
            pool.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ClientConnection connection : connections) {
            connection.close();
        }
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(DRAIN_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptConnections() {
        int failuresInARow = 0;
        while (!closed.get()) {
            Socket socket;
            try {
                socket = server.accept();
                failuresInARow = 0;
            } catch (SocketException serverClosed) {
                return;
            } catch (IOException e) {
                // A transient failure (e.g. out of file handles) is retried; a persistent one must not spin.
                if (closed.get() || ++failuresInARow >= MAX_ACCEPT_FAILURES_IN_A_ROW) {
                    return;
                }
                continue;
            }
            startConnection(socket);
        }
    }

    private void startConnection(Socket socket) {
        final ClientConnection connection;
        try {
            socket.setTcpNoDelay(true);
            connection = new ClientConnection(socket, stats);
        } catch (IOException e) {
            closeQuietly(socket);
            return;
        }
        connections.add(connection);
        if (closed.get()) {
            // close() may have swept the set before we added to it.
            connection.close();
            return;
        }
        Thread reader = new Thread(() -> serveConnection(connection), "gateway-conn-" + connectionNumber.getAndIncrement());
        reader.setDaemon(true);
        reader.start();
    }

    private void serveConnection(ClientConnection connection) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(connection.socket().getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!intake.handle(connection, line)) {
                    return;
                }
            }
        } catch (IOException closedOrReset) {
            // The client went away or close() closed the socket: the connection simply ends.
        } finally {
            connections.remove(connection);
            connection.close();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing to do.
        }
    }
}

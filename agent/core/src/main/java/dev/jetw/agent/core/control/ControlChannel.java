package dev.jetw.agent.core.control;

import dev.jetw.etw.UnpredictableBytes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * How the attach tool reaches an agent that is already in the JVM, without loading the agent jar
 * again (which JDK 21+ answers with its dynamic-agent warning in the application's output): a
 * loopback TCP socket. The port and a random 256-bit token are published in the system property
 * {@value #PROPERTY}, which only the JVM's own user (and root) can read, through the Attach API's
 * getSystemProperties; a request without the token is refused before its command is read.
 *
 * <p>Any local user can connect to a loopback port, so no client may hold the channel up: one daemon
 * thread, "jetw-control", reads every connection at once without blocking (a selector), each request
 * must be in within {@value #REQUEST_DEADLINE_MILLIS} ms of connecting and within the protocol's size caps,
 * a malformed one is closed on the spot, and at most {@value #MAX_READING} connections are read at once
 * (one more closes the oldest). A request that passed the token check runs on a thread of its own,
 * "jetw-control-request", off the application's threads and off the JVM's Attach Listener, so a long
 * instrumentation at attach holds neither; its reply goes back through the channel's thread. Plain
 * threads rather than an executor: a pool's worker would sit in ThreadPoolExecutor.runWorker for the
 * JVM's life, and the hand-off instrumentation redefines that class at every attach and detach (HotSpot
 * keeps a redefined class's old version while one of its methods is running).
 *
 * <p>The agent opens one channel per JVM (AgentMain), at the first -javaagent start or attach, and keeps it
 * for the JVM's life (the core's class loader lives as long, see AgentLauncher): a later attach after a
 * detach reuses it.
 */
public final class ControlChannel implements Runnable {

    /** "VERSION PORT TOKEN" while the channel is open. */
    public static final String PROPERTY = "jetw.control";
    /** A client has this long to send its whole request; the tool sends it at once on connecting. */
    static final int REQUEST_DEADLINE_MILLIS = 1_000;
    /** And this long to take its reply (the tool reads it at once). */
    static final int REPLY_DEADLINE_MILLIS = 10_000;
    /** Connections read at once; one more closes the oldest, so idle connections cannot lock the tool out. */
    static final int MAX_READING = 64;
    /** Connections the kernel queues before the channel's thread accepts them (capped by net.core.somaxconn). */
    static final int ACCEPT_BACKLOG = 1024;
    private static final String WRONG_TOKEN = "jetw: control: wrong token; nothing done";

    /** Runs one request and returns its reply text (a failure starts with "jetw: "). */
    public interface Handler {
        String handle(String command, String argument);
    }

    private final ServerSocketChannel server;
    private final Selector selector;
    private final int port;
    private final String token;
    private final byte[] tokenBytes;
    private final Handler handler;
    /** What a refused client still sends goes here, unread. */
    private final ByteBuffer dropped = ByteBuffer.allocate(4096);
    /** Every open connection in arrival order (only the channel's thread touches it). */
    private final Set<Connection> open = new LinkedHashSet<>();
    /** Connections whose request has run, handed back by its thread for the reply to be sent. */
    private final Queue<Connection> answered = new ConcurrentLinkedQueue<>();
    private int running;
    /** The channel's thread, which waits in the selector. */
    private Thread serving;
    /** Closes the channel at JVM exit (see {@link #open}). */
    private Thread closer;

    private ControlChannel(ServerSocketChannel server, Selector selector, int port, String token, Handler handler) {
        this.server = server;
        this.selector = selector;
        this.port = port;
        this.token = token;
        this.tokenBytes = token.getBytes(StandardCharsets.US_ASCII);
        this.handler = handler;
    }

    /** Opens a channel on a free loopback port and starts its thread. Throws when no socket can be opened. */
    public static ControlChannel open(Handler handler) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        Selector selector = null;
        try {
            // A long accept queue: when it is full the kernel drops a connecting tool's SYN, and TCP retries after 1 s.
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ACCEPT_BACKLOG);
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            ControlChannel channel = new ControlChannel(server, selector, port, newToken(), handler);
            Thread thread = dev.jetw.etw.JetwThreads.register(new Thread(channel, "jetw-control"));
            thread.setDaemon(true);
            channel.serving = thread;
            // At exit HotSpot waits up to 300 ms for each thread still in native code (VM_Exit's
            // wait_for_threads_in_native_to_block), and this thread sits in the selector's epoll_wait: without
            // closing it first, every exit of a JVM with the agent took 0.3 s longer.
            channel.closer = dev.jetw.etw.JetwThreads.register(new Thread(channel::closeQuietly, "jetw-control-close"));
            try {
                Runtime.getRuntime().addShutdownHook(channel.closer);
            } catch (IllegalStateException e) {
                throw new JvmExiting(e); // opened off premain's thread while the JVM began to exit: the socket is closed below
            }
            thread.start();
            return channel;
        } catch (IOException | RuntimeException e) {
            server.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    /** The JVM began to exit while the channel was being opened (no hook can be added any more); nothing stays open. */
    public static final class JvmExiting extends RuntimeException {
        private static final long serialVersionUID = 1L;

        JvmExiting(IllegalStateException cause) {
            super("the JVM is exiting", cause);
        }
    }

    /** What {@link #PROPERTY} holds for this channel: "VERSION PORT TOKEN" (ControlClient reads it). */
    public String address() {
        return ControlProtocol.VERSION + " " + port + " " + token;
    }

    /** Stops serving (tests; the agent's channel lives as long as the JVM and is closed at its exit). */
    void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(closer);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook closes it
        }
        selector.close();
        server.close();
    }

    private void closeQuietly() {
        try {
            selector.close();
            server.close();
        } catch (IOException | RuntimeException e) {
            // exiting: nothing to tell
        }
    }

    /** The shutdown hook that closes the channel, and the channel's own thread (tests). */
    Thread closer() {
        return closer;
    }

    Thread serving() {
        return serving;
    }

    /** 256 bits from the kernel's random device (or SecureRandom where there is none), as 64 hex digits. */
    private static String newToken() {
        return UnpredictableBytes.hex(32);
    }

    @Override
    public void run() {
        try {
            while (selector.isOpen()) {
                try {
                    selector.select(millisToNextDeadline());
                    sendAnswers();
                    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                    while (keys.hasNext()) {
                        SelectionKey key = keys.next();
                        keys.remove();
                        if (key.isValid() && key.isAcceptable()) {
                            accept();
                        } else if (key.isValid()) {
                            serve(key);
                        }
                    }
                    closeExpired();
                } catch (ClosedSelectorException e) {
                    return;
                } catch (Throwable t) {
                    // Nothing a client sends gets here (serve closes it); a failing accept (no file descriptors
                    // left) must not spin a core.
                    pause();
                }
            }
        } finally {
            for (Connection c : new ArrayList<>(open)) {
                close(c);
            }
        }
    }

    /** How long select may wait: until the earliest deadline, or for ever (0) with no connection to time out. */
    private long millisToNextDeadline() {
        long earliest = Connection.RUNNING;
        for (Connection c : open) {
            earliest = Math.min(earliest, c.deadline);
        }
        if (earliest == Connection.RUNNING) {
            return 0;
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(earliest - System.nanoTime()) + 1);
    }

    private void accept() throws IOException {
        for (SocketChannel socket; (socket = server.accept()) != null; ) {
            if (open.size() - running >= MAX_READING) {
                closeOldestReading();
            }
            try {
                socket.configureBlocking(false);
                Connection c = new Connection(socket, new RequestReader(tokenBytes), REQUEST_DEADLINE_MILLIS);
                socket.register(selector, SelectionKey.OP_READ, c);
                open.add(c);
            } catch (IOException | RuntimeException e) {
                closeQuietly(socket);
            }
        }
    }

    private void closeOldestReading() {
        for (Connection c : open) {
            if (c.deadline != Connection.RUNNING) {
                close(c);
                return;
            }
        }
    }

    /** Reads or writes what a connection is ready for; a broken or hostile client costs its own connection only. */
    private void serve(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        try {
            if (key.isReadable()) {
                read(c, key);
            }
            if (key.isValid() && key.isWritable()) {
                write(c, key);
            }
        } catch (IOException | RuntimeException e) {
            close(c);
        }
    }

    private void read(Connection c, SelectionKey key) throws IOException {
        if (c.drain) {
            dropped.clear();
            if (c.socket.read(dropped) < 0) {
                close(c);
            }
            return;
        }
        switch (c.request.read(c.socket)) {
            case INCOMPLETE:
                return;
            case WRONG_TOKEN:
                c.reply = ControlProtocol.reply(WRONG_TOKEN);
                c.drain = true;
                key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                return;
            default:
                key.interestOps(0);
                c.deadline = Connection.RUNNING;
                running++;
                startRequest(c);
        }
    }

    private void startRequest(Connection c) {
        String command = c.request.command();
        String argument = c.request.argument();
        Thread thread = dev.jetw.etw.JetwThreads.register(new Thread(() -> {
            String reply;
            try {
                reply = handler.handle(command, argument);
            } catch (Throwable t) {
                reply = "jetw: " + command + ": " + t;
            }
            c.reply = ControlProtocol.reply(reply);
            answered.add(c);
            selector.wakeup();
        }, "jetw-control-request"));
        thread.setDaemon(true);
        thread.start();
    }

    /** Replies of requests that have run: written as their clients take them, within the reply deadline. */
    private void sendAnswers() {
        for (Connection c; (c = answered.poll()) != null; ) {
            running--;
            c.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REPLY_DEADLINE_MILLIS);
            SelectionKey key = c.socket.keyFor(selector);
            if (key == null || !key.isValid()) {
                close(c);
            } else {
                key.interestOps(SelectionKey.OP_WRITE);
            }
        }
    }

    private void write(Connection c, SelectionKey key) throws IOException {
        c.socket.write(c.reply);
        if (c.reply.hasRemaining()) {
            return;
        }
        if (c.drain) {
            c.socket.shutdownOutput();
            key.interestOps(SelectionKey.OP_READ);
        } else {
            close(c);
        }
    }

    private void closeExpired() {
        long now = System.nanoTime();
        for (Connection c : new ArrayList<>(open)) {
            if (c.deadline != Connection.RUNNING && now - c.deadline > 0) {
                close(c);
            }
        }
    }

    private void close(Connection c) {
        open.remove(c);
        closeQuietly(c.socket);
    }

    private static void closeQuietly(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closed either way
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

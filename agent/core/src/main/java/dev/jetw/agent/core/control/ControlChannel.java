package dev.jetw.agent.core.control;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * How the attach tool reaches an agent that is already in the JVM, without loading the agent jar
 * again (which JDK 21+ answers with its dynamic-agent warning in the application's output): a
 * loopback TCP socket served by one daemon thread, "jetw-control". The port and a random 256-bit
 * token are published in the system property {@value #PROPERTY}, which only the JVM's own user
 * (and root) can read, through the Attach API's getSystemProperties; a request without the token
 * is refused. Requests run one at a time on this thread, off the application's threads and off the
 * JVM's Attach Listener, so a long instrumentation at attach never holds the Attach Listener.
 *
 * <p>The agent opens one channel per JVM (AgentMain), at the first -javaagent start or attach, and keeps it
 * for the JVM's life (the core's class loader lives as long, see AgentLauncher): a later attach after a
 * detach reuses it.
 */
public final class ControlChannel implements Runnable {

    /** "VERSION PORT TOKEN" while the channel is open. */
    public static final String PROPERTY = "jetw.control";
    /** A client has this long to send its request; a stalled one cannot hold the channel. */
    static final int REQUEST_TIMEOUT_MILLIS = 10_000;

    /** Runs one request and returns its reply text (a failure starts with "jetw: "). */
    public interface Handler {
        String handle(String command, String argument);
    }

    private final ServerSocket server;
    private final String token;
    private final Handler handler;

    private ControlChannel(ServerSocket server, String token, Handler handler) {
        this.server = server;
        this.token = token;
        this.handler = handler;
    }

    /** Opens a channel on a free loopback port and starts its thread. Throws when no socket can be opened. */
    public static ControlChannel open(Handler handler) throws IOException {
        ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        ControlChannel channel = new ControlChannel(server, newToken(), handler);
        Thread thread = new Thread(channel, "jetw-control");
        thread.setDaemon(true);
        thread.start();
        return channel;
    }

    /** What {@link #PROPERTY} holds for this channel: "VERSION PORT TOKEN" (ControlClient reads it). */
    public String address() {
        return ControlProtocol.VERSION + " " + server.getLocalPort() + " " + token;
    }

    /** Stops serving (tests; the agent's channel lives as long as the JVM). */
    void close() throws IOException {
        server.close();
    }

    private static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        StringBuilder sb = new StringBuilder(64);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }

    @Override
    public void run() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                serve(socket);
            } catch (Throwable t) {
                // A broken or hostile client costs its own request only; the channel goes on.
                pauseAfterFailure();
            }
        }
    }

    private void serve(Socket socket) throws IOException {
        socket.setSoTimeout(REQUEST_TIMEOUT_MILLIS);
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        String presented = ControlProtocol.readRequestToken(in);
        if (!MessageDigest.isEqual(presented.getBytes(StandardCharsets.US_ASCII), token.getBytes(StandardCharsets.US_ASCII))) {
            ControlProtocol.writeReply(out, "jetw: control: wrong token; nothing done");
            return;
        }
        String command = ControlProtocol.readCommand(in);
        String argument = ControlProtocol.readArgument(in);
        // The request is in; what it does may take long (instrumentation), the client waits for it.
        socket.setSoTimeout(0);
        String reply;
        try {
            reply = handler.handle(command, argument);
        } catch (Throwable t) {
            reply = "jetw: " + command + ": " + t;
        }
        ControlProtocol.writeReply(out, reply);
    }

    /** accept() failing in a loop (out of file descriptors) must not spin a core. */
    private static void pauseAfterFailure() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

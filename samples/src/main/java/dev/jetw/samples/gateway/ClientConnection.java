package dev.jetw.samples.gateway;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The server's end of one client socket. Replies come from worker threads, so writes are serialised
 * here; a reply to a client that has gone is counted, not thrown at the worker.
 */
final class ClientConnection implements Closeable {
    private final Socket socket;
    private final OutputStream out;
    private final GatewayStats stats;

    ClientConnection(Socket socket, GatewayStats stats) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.stats = stats;
    }

    Socket socket() {
        return socket;
    }

    synchronized void reply(String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException gone) {
            stats.undeliveredReplies.incrementAndGet();
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing during shutdown; nothing left to tell the client.
        }
    }
}

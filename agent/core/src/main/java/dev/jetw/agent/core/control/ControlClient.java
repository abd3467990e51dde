package dev.jetw.agent.core.control;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The attach tool's side of the {@link ControlChannel}: one request, one reply. Called by the tool
 * (agent/dist JetwCli) by reflection, with the value of the target's {@value ControlChannel#PROPERTY}
 * property it read through the Attach API.
 */
public final class ControlClient {

    static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** Instrumenting a large application at attach can take a while; a hung agent must not hang the tool. */
    static final int REPLY_TIMEOUT_MILLIS = 600_000;

    private ControlClient() {
    }

    /**
     * Sends {@code command} with {@code argument} to the channel described by {@code channel}
     * ("VERSION PORT TOKEN") and returns the agent's reply (a failure starts with "jetw: ").
     */
    public static String request(String channel, String command, String argument) throws IOException {
        String[] parts = channel.trim().split(" ");
        if (parts.length != 3 || !parts[0].equals(Integer.toString(ControlProtocol.VERSION))) {
            throw new IOException("the agent in the target publishes control channel '" + parts[0]
                    + "', this tool speaks version " + ControlProtocol.VERSION + " (use the tool of the same jetw version)");
        }
        int port;
        try {
            port = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("malformed control channel property (port '" + parts[1] + "')");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
            socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            ControlProtocol.writeRequest(out, parts[2], command, argument);
            return ControlProtocol.readReply(new DataInputStream(new BufferedInputStream(socket.getInputStream())));
        }
    }
}

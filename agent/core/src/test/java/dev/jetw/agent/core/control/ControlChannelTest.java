package dev.jetw.agent.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The control channel end to end over loopback: token check, long arguments, size caps, a failing handler. */
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
}

package dev.jetw.agent.core.control;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The wire format of the control channel (docs/agent-dist.md): a request is the magic number, the
 * protocol version and three length-prefixed UTF-8 strings (token, command, argument); the reply
 * is the magic number and one string. Lengths are capped so that a stray client cannot make the
 * agent allocate much; the token comes first so the agent checks it before reading anything large
 * (the agent's side reads requests with {@link RequestReader}).
 */
final class ControlProtocol {

    static final int MAGIC = 0x4A455457; // "JETW"
    static final int VERSION = 1;
    static final int MAX_TOKEN = 128;
    static final int MAX_COMMAND = 64;
    /** Option strings (a long include list) and file names fit easily; far more is no request of ours. */
    static final int MAX_ARGUMENT = 4 * 1024 * 1024;
    static final int MAX_REPLY = 16 * 1024 * 1024;

    private ControlProtocol() {
    }

    static void writeRequest(DataOutputStream out, String token, String command, String argument) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        writeString(out, token);
        writeString(out, command);
        writeString(out, argument);
        out.flush();
    }

    /** The reply as it goes on the wire: the magic number and one string. */
    static ByteBuffer reply(String reply) {
        byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(8 + bytes.length);
        buffer.putInt(MAGIC).putInt(bytes.length).put(bytes);
        buffer.flip();
        return buffer;
    }

    static String readReply(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("the control channel answered with something that is not a jetw reply");
        }
        return readString(in, MAX_REPLY);
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in, int max) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > max) {
            throw new IOException("a string of " + length + " bytes (at most " + max + " allowed)");
        }
        byte[] bytes = new byte[length];
        try {
            in.readFully(bytes);
        } catch (EOFException e) {
            throw new IOException("the request ended early", e);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

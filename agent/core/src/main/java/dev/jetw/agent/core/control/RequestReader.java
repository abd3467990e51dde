package dev.jetw.agent.core.control;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * One control request as its bytes arrive ({@link ControlProtocol}'s wire format), read without
 * blocking: the channel's one thread feeds it whatever a connection has sent so far, so a client that
 * sends slowly or never costs nothing but its own connection. The token is checked as soon as it is
 * in, before the command and argument are read, and each length is checked against its cap before
 * anything is allocated for it: a client without the token makes the agent hold at most about 150 bytes.
 */
final class RequestReader {

    /** Where a request stands after {@link #read}. */
    enum Progress {
        /** More bytes are needed. */
        INCOMPLETE,
        /** The token does not match: nothing after it is read, nothing runs. */
        WRONG_TOKEN,
        /** Command and argument are in. */
        COMPLETE
    }

    /** The caps of the three strings, in their order on the wire: token, command, argument. */
    private static final int[] CAPS = {ControlProtocol.MAX_TOKEN, ControlProtocol.MAX_COMMAND, ControlProtocol.MAX_ARGUMENT};

    private final byte[] token;
    /** The piece being filled: the header (magic, version), then per string its length and its bytes. */
    private ByteBuffer piece = ByteBuffer.allocate(8);
    private boolean headerRead;
    /** Which string comes next (an index into {@link #CAPS}), and whether its length or its bytes. */
    private int string;
    private boolean lengthNext = true;
    private String command;
    private String argument;

    RequestReader(byte[] token) {
        this.token = token;
    }

    /**
     * Takes what {@code in} has now. Throws for a request that is not one of ours (wrong magic or
     * version, a length over its cap, the connection closed early): the caller closes it unanswered.
     */
    Progress read(ReadableByteChannel in) throws IOException {
        while (true) {
            if (piece.hasRemaining() && in.read(piece) < 0) {
                throw new EOFException("the request ended early");
            }
            if (piece.hasRemaining()) {
                return Progress.INCOMPLETE;
            }
            piece.flip();
            if (!headerRead) {
                checkHeader(piece.getInt(), piece.getInt());
                headerRead = true;
                piece = ByteBuffer.allocate(4);
            } else if (lengthNext) {
                piece = ByteBuffer.allocate(length(CAPS[string]));
                lengthNext = false;
            } else {
                Progress progress = take(piece.array());
                if (progress != Progress.INCOMPLETE) {
                    return progress;
                }
                piece = ByteBuffer.allocate(4);
                lengthNext = true;
                string++;
            }
        }
    }

    /** One whole string: the token is checked at once, the argument completes the request. */
    private Progress take(byte[] bytes) {
        switch (string) {
            case 0:
                return MessageDigest.isEqual(bytes, token) ? Progress.INCOMPLETE : Progress.WRONG_TOKEN;
            case 1:
                command = new String(bytes, StandardCharsets.UTF_8);
                return Progress.INCOMPLETE;
            default:
                argument = new String(bytes, StandardCharsets.UTF_8);
                return Progress.COMPLETE;
        }
    }

    private static void checkHeader(int magic, int version) throws IOException {
        if (magic != ControlProtocol.MAGIC) {
            throw new IOException("not a jetw control request");
        }
        if (version != ControlProtocol.VERSION) {
            throw new IOException("control protocol version " + version + ", this agent speaks " + ControlProtocol.VERSION);
        }
    }

    private int length(int max) throws IOException {
        int length = piece.getInt();
        if (length < 0 || length > max) {
            throw new IOException("a string of " + length + " bytes (at most " + max + " allowed)");
        }
        return length;
    }

    String command() {
        return command;
    }

    String argument() {
        return argument;
    }
}

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

    private static final int HEADER = 0;
    private static final int TOKEN_LENGTH = 1;
    private static final int TOKEN = 2;
    private static final int COMMAND_LENGTH = 3;
    private static final int COMMAND = 4;
    private static final int ARGUMENT_LENGTH = 5;
    private static final int ARGUMENT = 6;

    private final byte[] token;
    /** The piece being filled: a header, a length or a string, in the order of the wire format. */
    private ByteBuffer piece = ByteBuffer.allocate(8);
    private int step = HEADER;
    private boolean authenticated;
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
            switch (step++) {
                case HEADER:
                    checkHeader(piece.getInt(), piece.getInt());
                    piece = ByteBuffer.allocate(4);
                    break;
                case TOKEN_LENGTH:
                    piece = ByteBuffer.allocate(length(ControlProtocol.MAX_TOKEN));
                    break;
                case TOKEN:
                    if (!MessageDigest.isEqual(piece.array(), token)) {
                        return Progress.WRONG_TOKEN;
                    }
                    authenticated = true;
                    piece = ByteBuffer.allocate(4);
                    break;
                case COMMAND_LENGTH:
                    piece = ByteBuffer.allocate(length(ControlProtocol.MAX_COMMAND));
                    break;
                case COMMAND:
                    command = new String(piece.array(), StandardCharsets.UTF_8);
                    piece = ByteBuffer.allocate(4);
                    break;
                case ARGUMENT_LENGTH:
                    piece = ByteBuffer.allocate(length(ControlProtocol.MAX_ARGUMENT));
                    break;
                default:
                    argument = new String(piece.array(), StandardCharsets.UTF_8);
                    return Progress.COMPLETE;
            }
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

    /** Whether the token has been read and matched (a client past it is one of ours). */
    boolean authenticated() {
        return authenticated;
    }

    String command() {
        return command;
    }

    String argument() {
        return argument;
    }
}

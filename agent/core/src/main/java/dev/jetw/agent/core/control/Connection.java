package dev.jetw.agent.core.control;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/** One client of the {@link ControlChannel}: its request as it arrives, its reply as it leaves, and until when it may take. */
final class Connection {

    /** The deadline of a connection whose request is running: the handler may take long (instrumentation at attach). */
    static final long RUNNING = Long.MAX_VALUE;

    final SocketChannel socket;
    final RequestReader request;
    /** The reply being sent, or null before there is one. */
    ByteBuffer reply;
    /**
     * After a refusal: what the client still sends is read and dropped until it closes or its time is up,
     * because closing a socket with unread bytes resets the connection and the client would lose the reply.
     */
    boolean drain;
    /** System.nanoTime() after which the channel closes it, or {@link #RUNNING}. */
    long deadline;

    /** A connection just accepted, with the request's time to come in (the channel's read deadline). */
    Connection(SocketChannel socket, RequestReader request, long requestDeadlineMillis) {
        this.socket = socket;
        this.request = request;
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestDeadlineMillis);
    }
}

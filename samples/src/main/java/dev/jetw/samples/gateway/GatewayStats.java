package dev.jetw.samples.gateway;

import java.util.concurrent.atomic.AtomicLong;

/** What the gateway did, counted on the server side (the load generator counts the replies it sees). */
public final class GatewayStats {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong badRequests = new AtomicLong();
    final AtomicLong undeliveredReplies = new AtomicLong();

    public long ok() {
        return ok.get();
    }

    public long rejected() {
        return rejected.get();
    }

    public long failed() {
        return failed.get();
    }

    public long badRequests() {
        return badRequests.get();
    }

    /** Replies that could not be written because the client had gone. */
    public long undeliveredReplies() {
        return undeliveredReplies.get();
    }
}

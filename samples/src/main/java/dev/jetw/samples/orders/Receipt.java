package dev.jetw.samples.orders;

/** The outcome of an accepted order: what was charged and where it sits in the journal. */
public final class Receipt {
    private final long orderId;
    private final long totalCents;
    private final String authorisation;
    private final long journalSequence;

    public Receipt(long orderId, long totalCents, String authorisation, long journalSequence) {
        this.orderId = orderId;
        this.totalCents = totalCents;
        this.authorisation = authorisation;
        this.journalSequence = journalSequence;
    }

    public long orderId() {
        return orderId;
    }

    public long totalCents() {
        return totalCents;
    }

    public String authorisation() {
        return authorisation;
    }

    public long journalSequence() {
        return journalSequence;
    }
}

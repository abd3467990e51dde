package dev.jetw.samples.orders;

/**
 * The card issuer declined the charge. Unchecked on purpose: nothing in the order task catches it, so it
 * escapes the task's run() and the worker pool sees it (the sample's "error that escapes a task").
 */
public final class PaymentDeclinedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PaymentDeclinedException(String message) {
        super(message);
    }
}

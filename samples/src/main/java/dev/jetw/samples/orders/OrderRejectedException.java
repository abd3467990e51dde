package dev.jetw.samples.orders;

/**
 * An order the service refuses for a business reason (unknown SKU, quantity out of range). Checked on
 * purpose: the task that processes the order must catch it and answer the client, so it is the
 * sample's "handled error".
 */
public final class OrderRejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    public OrderRejectedException(String reason) {
        super(reason);
    }
}

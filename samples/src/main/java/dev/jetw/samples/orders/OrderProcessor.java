package dev.jetw.samples.orders;

import dev.jetw.api.Jetw;

import java.io.IOException;

/**
 * The order pipeline: validate, price, reserve stock, charge, journal. The checkpoints mark the
 * pipeline's stages inside the enclosing traced call, so a trace shows where an order spent its time.
 */
public final class OrderProcessor {
    private final OrderValidator validator;
    private final Pricing pricing;
    private final Inventory inventory;
    private final PaymentService payments;
    private final Journal journal;

    public OrderProcessor(Catalog catalog, Inventory inventory, PaymentService payments, Journal journal) {
        this.validator = new OrderValidator(catalog);
        this.pricing = new Pricing(catalog);
        this.inventory = inventory;
        this.payments = payments;
        this.journal = journal;
    }

    /**
     * Processes one order. A rejection is a checked exception the caller answers; a declined payment
     * is unchecked and escapes after the reservation was released.
     */
    public Receipt process(Order order) throws OrderRejectedException, IOException {
        validator.validate(order);
        Jetw.checkpoint("validated");
        long total = pricing.price(order);
        Jetw.checkpoint("priced");
        inventory.reserve(order);
        Jetw.checkpoint("reserved");
        String authorisation = charge(order, total);
        Jetw.checkpoint("paid");
        long sequence = journal.append(order, total, authorisation);
        Jetw.checkpoint("journaled");
        return new Receipt(order.id(), total, authorisation, sequence);
    }

    private String charge(Order order, long total) {
        try {
            return payments.charge(order, total);
        } catch (PaymentDeclinedException declined) {
            // Compensate, then let the failure escape: the task does not know how to handle it.
            inventory.release(order);
            Jetw.checkpoint("reservation released", Jetw.WARNING);
            throw declined;
        }
    }
}

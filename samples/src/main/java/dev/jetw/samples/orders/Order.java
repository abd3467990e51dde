package dev.jetw.samples.orders;

/** One customer order, as it travels over the gateway's line protocol. Immutable. */
public final class Order {
    private final long id;
    private final String customer;
    private final String sku;
    private final int quantity;
    private final String card;

    public Order(long id, String customer, String sku, int quantity, String card) {
        this.id = id;
        this.customer = customer;
        this.sku = sku;
        this.quantity = quantity;
        this.card = card;
    }

    public long id() {
        return id;
    }

    public String customer() {
        return customer;
    }

    public String sku() {
        return sku;
    }

    public int quantity() {
        return quantity;
    }

    public String card() {
        return card;
    }

    @Override
    public String toString() {
        return "order " + id + " (" + customer + ", " + quantity + " x " + sku + ")";
    }
}

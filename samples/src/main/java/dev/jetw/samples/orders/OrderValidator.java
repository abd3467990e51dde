package dev.jetw.samples.orders;

/** First step of the pipeline: refuses orders the service cannot fulfil. */
public final class OrderValidator {
    public static final int MIN_QUANTITY = 1;
    public static final int MAX_QUANTITY = 50;

    private final Catalog catalog;

    public OrderValidator(Catalog catalog) {
        this.catalog = catalog;
    }

    public void validate(Order order) throws OrderRejectedException {
        if (!catalog.contains(order.sku())) {
            throw new OrderRejectedException("unknown SKU " + order.sku());
        }
        if (order.quantity() < MIN_QUANTITY || order.quantity() > MAX_QUANTITY) {
            throw new OrderRejectedException("quantity " + order.quantity() + " out of range "
                    + MIN_QUANTITY + ".." + MAX_QUANTITY);
        }
    }
}

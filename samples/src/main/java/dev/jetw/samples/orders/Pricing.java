package dev.jetw.samples.orders;

/** Prices a validated order: catalog lookup, then volume and loyalty discounts. */
public final class Pricing {
    /** Orders of this many units or more get the volume discount. */
    public static final int VOLUME_QUANTITY = 10;
    static final int VOLUME_DISCOUNT_PERCENT = 10;
    static final int LOYALTY_DISCOUNT_PERCENT = 5;

    private final Catalog catalog;

    public Pricing(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Total in cents, discounts applied. */
    public long price(Order order) {
        long gross = lookUpUnitPrice(order.sku()) * order.quantity();
        return applyDiscounts(order, gross);
    }

    private long lookUpUnitPrice(String sku) {
        return catalog.unitPriceCents(sku);
    }

    private long applyDiscounts(Order order, long gross) {
        int percent = 0;
        if (order.quantity() >= VOLUME_QUANTITY) {
            percent += VOLUME_DISCOUNT_PERCENT;
        }
        if (isLoyalCustomer(order.customer())) {
            percent += LOYALTY_DISCOUNT_PERCENT;
        }
        return gross - gross * percent / 100;
    }

    /** Customers C000..C049 are members of the loyalty programme. */
    static boolean isLoyalCustomer(String customer) {
        return customer.length() == 4 && customer.charAt(0) == 'C' && customer.compareTo("C050") < 0;
    }
}

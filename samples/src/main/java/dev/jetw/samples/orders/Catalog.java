package dev.jetw.samples.orders;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The product catalog: SKU to unit price in cents. Read-only after construction, so shared by all workers. */
public final class Catalog {
    /** Number of products; SKUs are SKU-1001 .. SKU-1020. */
    public static final int SIZE = 20;
    private static final int FIRST_SKU = 1001;

    private final Map<String, Long> unitPriceCents;

    public Catalog() {
        Map<String, Long> prices = new LinkedHashMap<>();
        for (int i = 0; i < SIZE; i++) {
            // Fixed prices between 4.99 and 99.99 so totals are reproducible.
            prices.put(sku(i), 499L + (i * 997L) % 9500L);
        }
        this.unitPriceCents = Collections.unmodifiableMap(prices);
    }

    /** The i-th catalog SKU, 0 <= i < SIZE. */
    public static String sku(int i) {
        return "SKU-" + (FIRST_SKU + i);
    }

    public boolean contains(String sku) {
        return unitPriceCents.containsKey(sku);
    }

    /** Unit price in cents; the SKU must exist (validation runs first). */
    public long unitPriceCents(String sku) {
        Long price = unitPriceCents.get(sku);
        if (price == null) {
            throw new IllegalArgumentException("unknown SKU " + sku);
        }
        return price;
    }
}

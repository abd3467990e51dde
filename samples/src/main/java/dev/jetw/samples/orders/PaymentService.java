package dev.jetw.samples.orders;

/**
 * Charges the customer's card. A stand-in for a payment provider: the well-known test card number
 * {@link #DECLINED_CARD} is always declined, every other card is authorised.
 */
public final class PaymentService {
    /** The card number issuers' test suites use for "card declined". */
    public static final String DECLINED_CARD = "4000-0000-0000-0002";

    /** Returns the authorisation code; throws when the issuer declines. */
    public String charge(Order order, long amountCents) {
        if (DECLINED_CARD.equals(order.card())) {
            throw new PaymentDeclinedException("card declined for order " + order.id()
                    + " (" + amountCents + " cents)");
        }
        return "AUTH-" + Long.toString(order.id() * 7919L + amountCents, 36).toUpperCase();
    }
}

package dev.jetw.etl.lz77;

/** A Plain LZ77 stream that cannot be decoded; {@link #inputPosition()} is where, from the stream's start. */
public final class Lz77Exception extends Exception {

    private static final long serialVersionUID = 1L;
    private final int inputPosition;

    public Lz77Exception(int inputPosition, String message) {
        super(message + " at stream byte " + inputPosition);
        this.inputPosition = inputPosition;
    }

    public int inputPosition() {
        return inputPosition;
    }
}

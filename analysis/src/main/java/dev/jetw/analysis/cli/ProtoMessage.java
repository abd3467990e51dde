package dev.jetw.analysis.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One protobuf message being encoded, by hand: the wire format has only what Perfetto's few messages
 * need, varints (wire type 0), fixed64 (wire type 1) and length-delimited fields (wire type 2, strings and nested messages),
 * per https://protobuf.dev/programming-guides/encoding/. Fields are written in the order they are
 * added; a message is reused after {@link #clear}. (Why not protobuf-java: docs/etl-tools.md.)
 */
final class ProtoMessage {

    private byte[] bytes = new byte[256];
    private int size;

    ProtoMessage clear() {
        size = 0;
        return this;
    }

    int size() {
        return size;
    }

    /** A varint field (uint32/uint64/int32 of a non-negative value/int64/bool/enum). */
    ProtoMessage varint(int field, long value) {
        rawVarint((long) field << 3);
        rawVarint(value);
        return this;
    }

    /** A fixed64 field (wire type 1: eight bytes, little-endian). */
    ProtoMessage fixed64(int field, long value) {
        rawVarint((long) field << 3 | 1);
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    ProtoMessage string(int field, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        rawVarint((long) field << 3 | 2);
        rawVarint(b.length);
        raw(b, 0, b.length);
        return this;
    }

    ProtoMessage message(int field, ProtoMessage m) {
        rawVarint((long) field << 3 | 2);
        rawVarint(m.size);
        raw(m.bytes, 0, m.size);
        return this;
    }

    /** Writes this message as field {@code field} of an enclosing message straight to {@code out}. */
    void writeAsField(int field, OutputStream out) throws IOException {
        ProtoMessage head = new ProtoMessage();
        head.rawVarint((long) field << 3 | 2);
        head.rawVarint(size);
        out.write(head.bytes, 0, head.size);
        out.write(bytes, 0, size);
    }

    private void rawVarint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
    }

    private void raw(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}

package dev.jetw.etl;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Turns a fixed-stride .etl file into what the Relogger writes (etl-format.md §13): buffer 0 kept
 * uncompressed but cut to its Offset rounded up to 0x200, every other buffer stored as its 0x48-byte
 * header (BufferSize = bytes on disk, flag 0x40 added) followed by a Plain LZ77 stream of its used
 * bytes. The stream here is literals only: valid [MS-XCA] output, not a good compressor.
 */
public final class RelogFixture {

    private RelogFixture() {
    }

    public static byte[] relog(byte[] file, int bufferSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + bufferSize <= file.length; at += bufferSize) {
            int used = in.getInt(at + EtlFormat.BH_OFFSET);
            byte[] header = Arrays.copyOfRange(file, at, at + EtlFormat.BUFFER_HEADER_SIZE);
            ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            if (at == 0) {
                int onDisk = (used + 0x1FF) & ~0x1FF;
                byte[] b = Arrays.copyOfRange(file, 0, onDisk);
                Arrays.fill(b, used, onDisk, (byte) 0xFF);
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(0, onDisk);
                out.writeBytes(b);
                continue;
            }
            byte[] stream = literals(Arrays.copyOfRange(file, at + EtlFormat.BUFFER_HEADER_SIZE, at + used));
            h.putInt(EtlFormat.BH_BUFFER_SIZE, EtlFormat.BUFFER_HEADER_SIZE + stream.length);
            h.putShort(EtlFormat.BH_BUFFER_FLAG, (short) (h.getShort(EtlFormat.BH_BUFFER_FLAG) | EtlFormat.BUFFER_FLAG_COMPRESSED));
            out.writeBytes(header);
            out.writeBytes(stream);
        }
        return out.toByteArray();
    }

    /** A Plain LZ77 stream of literals: per 32 bytes a flag word of 0 bits; the bits after the last literal are 1s. */
    public static byte[] literals(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i <= data.length; i += 32) {
            int n = Math.min(32, data.length - i);
            int flags = n == 32 ? 0 : (int) (0xFFFFFFFFL >>> n);
            out.write(flags);
            out.write(flags >>> 8);
            out.write(flags >>> 16);
            out.write(flags >>> 24);
            out.write(data, i, n);
        }
        return out.toByteArray();
    }
}

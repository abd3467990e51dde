package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The ring-buffer page layout as the instance's events/header_page states it. On x86-64 with 4 KiB
 * sub-buffers:
 * <pre>
 *   field: u64 timestamp;   offset:0;  size:8;
 *   field: local_t commit;  offset:8;  size:8;   (bytes of data; bits 31 and 30 are loss flags)
 *   field: int overwrite;   offset:8;  size:1;   (an alias of commit's low byte: ignored)
 *   field: char data;       offset:16; size:4080;
 * </pre>
 * The page (sub-buffer) size read from trace_pipe_raw is data offset + data size (buffer_subbuf_size_kb).
 */
final class HeaderPage {

    public final int timestampOffset;
    public final int commitOffset;
    public final int commitSize;
    public final int dataOffset;
    public final int dataSize;

    HeaderPage(int timestampOffset, int commitOffset, int commitSize, int dataOffset, int dataSize) {
        this.timestampOffset = timestampOffset;
        this.commitOffset = commitOffset;
        this.commitSize = commitSize;
        this.dataOffset = dataOffset;
        this.dataSize = dataSize;
    }

    public int pageSize() {
        return dataOffset + dataSize;
    }

    public static HeaderPage read(File instanceOrRoot) throws IOException {
        return parse(TextFiles.read(new File(instanceOrRoot, "events/header_page")));
    }

    public static HeaderPage parse(String text) throws IOException {
        int[] ts = null;
        int[] commit = null;
        int[] data = null;
        for (String line : text.split("\n")) {
            EventFormat.Field f = EventFormat.parseField(line);
            if (f == null) {
                continue;
            }
            if (f.name.equals("timestamp")) {
                ts = new int[] {f.offset, f.size};
            } else if (f.name.equals("commit")) {
                commit = new int[] {f.offset, f.size};
            } else if (f.name.equals("data")) {
                data = new int[] {f.offset, f.size};
            }
        }
        if (ts == null || commit == null || data == null || ts[1] != 8 || (commit[1] != 8 && commit[1] != 4)) {
            throw new IOException("unexpected header_page:\n" + text);
        }
        return new HeaderPage(ts[0], commit[0], commit[1], data[0], data[1]);
    }

    @Override
    public String toString() {
        return "timestamp@" + timestampOffset + " commit@" + commitOffset + "/" + commitSize + " data@" + dataOffset
                + " size " + dataSize + " (page " + pageSize() + ")";
    }
}

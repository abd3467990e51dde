package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A fact about the session itself that the trace must carry, because whoever reads the file later did
 * not see the session's console: something asked for that the session could not record ("kernel=cswitch:
 * no kernel events: tracefs is not writable by uid 1000 ..."), or a quality note about what it did record
 * ("kernel events lost on CPU 1: 1,543 overwritten before they were read").
 *
 * <p>Written by the session engine (not by a provider) as a plain classic record (EVENT_TRACE_HEADER,
 * 0x14) of class {@link #CLASS}, type {@link EventType#INFO}, header thread id 0, the session's process
 * id, at the moment the fact became known. Payload (version 0), little-endian, no padding:
 * <pre>
 *   u32 kind      1 PROBLEM: something the configuration asked for is missing from the trace;
 *                 2 NOTE: the trace holds what was asked, with a caveat worth reading;
 *                 3 WRITER: what wrote the file and on which host ("jetw portable backend, Java 17.0.15,
 *                   Linux 6.18.0 amd64"), once per file, in the header buffer right after the logfile
 *                   header (see {@link EtlLogfileHeader#writer}), so it is in every file a session writes
 *                   (circular, newfile, dumps) whatever buffers were overwritten
 *                 4 RING: the file (or dump) is a buffering ring's, whose full ring overwrote its oldest
 *                   buffers: in buffer 0 after the WRITER notice (see {@link EtlLogfileHeader#ring}); the
 *                   logfile header cannot say it, as ETW clears EVENT_TRACE_BUFFERING_MODE in its LogFileMode
 *   UTF-16Z text  one line, saying what is missing or odd and, for a problem, how to fix it
 * </pre>
 * Readers list problems with the file's other problems ({@code jetw etl summary}), notes as notes, and the
 * writer as "written by", and a RING notice tells them that ENDs whose START is not in the file can be the
 * ring's overwritten past rather than a loss;
 * a reader that does not know the class shows it as an unknown classic event, which loses nothing.
 */
public final class SessionNotice {

    /** The event class of session notices {79b4d8c6-6a0f-4cf5-9bd4-5f0e2a1d7c31}. */
    public static final UUID CLASS = UUID.fromString("79b4d8c6-6a0f-4cf5-9bd4-5f0e2a1d7c31");
    /** Something the configuration asked for is missing from the trace. */
    public static final int PROBLEM = 1;
    /** The trace holds what was asked, with a caveat. */
    public static final int NOTE = 2;
    /** What wrote the file and on which host (the logfile header's version is the Windows layout it follows). */
    public static final int WRITER = 3;
    /** The file is a buffering ring's: its oldest buffers can have been overwritten, by design, without loss. */
    public static final int RING = 4;
    public static final int VERSION = 0;

    private final int kind;
    private final String text;

    public SessionNotice(int kind, String text) {
        this.kind = kind;
        this.text = text;
    }

    public int kind() {
        return kind;
    }

    public String text() {
        return text;
    }

    public boolean isProblem() {
        return kind == PROBLEM;
    }

    public boolean isWriter() {
        return kind == WRITER;
    }

    public boolean isRing() {
        return kind == RING;
    }

    /** The record payload of a notice. */
    public static byte[] encode(int kind, String text) {
        byte[] chars = text.getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer b = ByteBuffer.allocate(4 + chars.length + 2).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(kind).put(chars).putShort((short) 0);
        return b.array();
    }

    /** The notice a record holds, or null when it is not a session notice (or its payload is malformed). */
    public static SessionNotice decode(EtlRecord r) {
        if (!CLASS.equals(r.guid()) || r.type() != EventType.INFO) {
            return null;
        }
        byte[] p = r.userData();
        if (p.length < 6 || (p.length & 1) != 0) {
            return null;
        }
        int kind = ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        int end = 4;
        while (end + 1 < p.length && (p[end] != 0 || p[end + 1] != 0)) {
            end += 2;
        }
        return new SessionNotice(kind, new String(p, 4, end - 4, StandardCharsets.UTF_16LE));
    }

    @Override
    public String toString() {
        return (kind == PROBLEM ? "problem: " : kind == NOTE ? "note: " : kind == WRITER ? "written by: "
                : kind == RING ? "ring: " : "notice " + kind + ": ") + text;
    }
}

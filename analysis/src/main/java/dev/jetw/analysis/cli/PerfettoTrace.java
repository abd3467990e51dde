package dev.jetw.analysis.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a Perfetto trace (perfetto.protos.Trace: a stream of TracePacket, each as field 1) with the
 * few messages of the TrackEvent format, field numbers from Perfetto's protos
 * (protos/perfetto/trace/trace_packet.proto, track_event/track_event.proto, track_descriptor.proto,
 * process_descriptor.proto, thread_descriptor.proto, debug_annotation.proto):
 * <ul>
 *   <li>TracePacket: timestamp 8 (ns), trusted_packet_sequence_id 10, track_event 11, sequence_flags 13,
 *       track_descriptor 60;</li>
 *   <li>TrackDescriptor: uuid 1, name 2, process 3, thread 4, parent_uuid 5;
 *       ProcessDescriptor: pid 1, process_name 6; ThreadDescriptor: pid 1, tid 2, thread_name 5;</li>
 *   <li>TrackEvent: debug_annotations 4, type 9 (SLICE_BEGIN 1, SLICE_END 2, INSTANT 3), track_uuid 11,
 *       categories 22, name 23, flow_ids 47 and terminating_flow_ids 48 (repeated fixed64; they
 *       replaced the varint fields 36 and 42); DebugAnnotation: int_value 4, string_value 6, name 10.</li>
 * </ul>
 * Every packet has absolute timestamps (no interning, no incremental state), all on one sequence; the
 * trace processor sorts packets by time, and the caller keeps each track's slices nested and its events
 * in time order. Memory: one packet at a time.
 */
final class PerfettoTrace implements AutoCloseable {

    static final int SLICE_BEGIN = 1;
    static final int SLICE_END = 2;
    static final int INSTANT = 3;
    /** The one sequence every packet is on. */
    static final int SEQUENCE = 1;
    /** TracePacket.sequence_flags: SEQ_INCREMENTAL_STATE_CLEARED, on the first packet. */
    private static final int SEQ_INCREMENTAL_STATE_CLEARED = 1;
    /** FILETIME (100 ns since 1601) of 1970-01-01: timestamps are ns since the Unix epoch. */
    private static final long UNIX_EPOCH_FILETIME = 116_444_736_000_000_000L;

    private final OutputStream out;
    private final ProtoMessage packet = new ProtoMessage();
    private final ProtoMessage body = new ProtoMessage();
    private final ProtoMessage inner = new ProtoMessage();
    private final ProtoMessage annotation = new ProtoMessage();
    private boolean first = true;
    long packets;
    long slices;
    long instants;

    PerfettoTrace(OutputStream out) {
        this.out = out;
    }

    static long nanos(long fileTime) {
        return (fileTime - UNIX_EPOCH_FILETIME) * 100;
    }

    void processTrack(long uuid, int pid, String name) throws IOException {
        inner.clear().varint(1, pid).string(6, name);
        body.clear().varint(1, uuid).message(3, inner);
        descriptor();
    }

    void threadTrack(long uuid, long parentUuid, int pid, int tid, String name) throws IOException {
        inner.clear().varint(1, pid).varint(2, tid).string(5, name);
        body.clear().varint(1, uuid).varint(5, parentUuid).message(4, inner);
        descriptor();
    }

    /** A named track under another one (a thread's CPU state, a process's JVM runtime lane). */
    void childTrack(long uuid, long parentUuid, String name) throws IOException {
        body.clear().varint(1, uuid).varint(5, parentUuid).string(2, name);
        descriptor();
    }

    private void descriptor() throws IOException {
        packet.clear().varint(10, SEQUENCE);
        firstFlags();
        packet.message(60, body);
        write();
    }

    /** Starts a TrackEvent: then any {@link #annotate} calls, then {@link #endEvent}. */
    void event(int type, long fileTime, long track, String category, String name) {
        body.clear().varint(9, type).varint(11, track);
        if (category != null) {
            body.string(22, category);
        }
        if (name != null) {
            body.string(23, name);
        }
        if (type == SLICE_BEGIN) {
            slices++;
        } else if (type == INSTANT) {
            instants++;
        }
        packet.clear().varint(8, nanos(fileTime)).varint(10, SEQUENCE);
        firstFlags();
    }

    void annotate(String name, long value) {
        annotation.clear().varint(4, value).string(10, name);
        body.message(4, annotation);
    }

    void annotate(String name, String value) {
        annotation.clear().string(6, value).string(10, name);
        body.message(4, annotation);
    }

    /** The event starts a flow (an arrow to the event that terminates the same id, on any track). */
    void flow(long id) {
        body.fixed64(47, id);
    }

    /** The event ends the flow {@code id}. */
    void terminatingFlow(long id) {
        body.fixed64(48, id);
    }

    void endEvent() throws IOException {
        packet.message(11, body);
        write();
    }

    void end(long fileTime, long track) throws IOException {
        event(SLICE_END, fileTime, track, null, null);
        endEvent();
    }

    private void firstFlags() {
        if (first) {
            packet.varint(13, SEQ_INCREMENTAL_STATE_CLEARED);
            first = false;
        }
    }

    private void write() throws IOException {
        packet.writeAsField(1, out);
        packets++;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

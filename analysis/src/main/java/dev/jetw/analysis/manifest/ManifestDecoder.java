package dev.jetw.analysis.manifest;

import dev.jetw.analysis.kernel.PayloadCursor;
import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes the events of manifest providers (EVENT_HEADER records with a GUID, an id and a version) by the
 * manifests jetw knows: {@link BundledManifests} (the .NET runtime's). The event is found by provider,
 * id and version; its template's fields are read in order with the record's pointer size. A version the
 * manifest does not declare keeps the name of another version and decodes no field; an input type this
 * reader does not know, or a payload shorter than the template, stops there and keeps the fields before.
 * Decoding never throws.
 */
public final class ManifestDecoder {

    /** EVENT_HEADER_FLAG_32_BIT_HEADER / _64_BIT_HEADER: the pointer size of the process that logged the event. */
    private static final int FLAG_32_BIT = 0x0020;
    private static final int FLAG_64_BIT = 0x0040;

    /** The manifests; null for the bundled ones until an event of theirs is seen. */
    private InstrumentationManifest manifest;
    private final boolean bundled;

    public ManifestDecoder(InstrumentationManifest manifest) {
        this.manifest = manifest;
        this.bundled = false;
    }

    private ManifestDecoder() {
        this.bundled = true;
    }

    /** The decoder over the bundled manifests, read on the first event of one of their providers. */
    public static ManifestDecoder bundled() {
        return new ManifestDecoder();
    }

    /** The manifests that may declare {@code r}'s provider, or null when none does (the bundled ones are then not read). */
    private InstrumentationManifest manifestFor(EtlRecord r) {
        if (r.guid() == null) {
            return null;
        }
        if (bundled) {
            if (!BundledManifests.PROVIDERS.contains(r.guid())) {
                return null;
            }
            if (manifest == null) {
                manifest = BundledManifests.get();
            }
        }
        return manifest;
    }

    /** The provider's name when a known manifest declares it, else null. */
    public String providerName(EtlRecord r) {
        InstrumentationManifest m = manifestFor(r);
        return m == null ? null : m.providerName(r.guid());
    }

    /** The manifest's view of {@code r}, or null when no known manifest declares its event. */
    public ManifestEvent decode(EtlRecord r) {
        int ht = r.headerType();
        if (ht != EtlFormat.HT_EVENT_HEADER32 && ht != EtlFormat.HT_EVENT_HEADER64) {
            return null;
        }
        InstrumentationManifest manifest = manifestFor(r);
        if (manifest == null) {
            return null;
        }
        int version = r.version() & 0xFF;
        EventDefinition d = manifest.event(r.guid(), r.eventId(), version);
        if (d == null) {
            EventDefinition other = manifest.anyVersion(r.guid(), r.eventId());
            return other == null ? null : new ManifestEvent(other.provider, other.displayName(), other.symbol,
                    new LinkedHashMap<String, Object>(), new HashSet<String>(), "version " + version
                    + " is not in the manifest (it has version " + other.version + "); fields not decoded");
        }
        int pointerSize = (r.flags() & FLAG_32_BIT) != 0 ? 4 : (r.flags() & FLAG_64_BIT) != 0 ? 8
                : ht == EtlFormat.HT_EVENT_HEADER32 ? 4 : 8;
        PayloadCursor in = new PayloadCursor(r.userData(), pointerSize);
        Map<String, Object> values = new LinkedHashMap<>();
        Set<String> hex = new HashSet<>();
        String note;
        try {
            note = readFields(d.fields, in, values, hex);
            if (note == null && in.remaining() > 0) {
                note = in.remaining() + " bytes after the template's fields are not decoded";
            }
        } catch (PayloadCursor.PayloadEnded e) {
            note = e.getMessage();
        }
        return new ManifestEvent(d.provider, d.displayName(), d.symbol, values, hex, note);
    }

    /** Reads {@code fields} into {@code values}; returns a note when a type is not supported (null when all read). */
    private static String readFields(List<FieldDefinition> fields, PayloadCursor in, Map<String, Object> values, Set<String> hex)
            throws PayloadCursor.PayloadEnded {
        for (FieldDefinition f : fields) {
            long count = resolve(f.count, values, 1);
            if (count < 0) {
                return "count of " + f.name + " (" + f.count + ") is not a field read before it; stopped there";
            }
            boolean array = f.count != null;
            List<Object> items = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                Object v;
                if (f.isStruct()) {
                    Map<String, Object> member = new LinkedHashMap<>();
                    String note = readFields(f.members, in, member, new HashSet<String>());
                    if (note != null) {
                        return note;
                    }
                    v = member;
                } else {
                    v = value(f, in, values);
                    if (v == null) {
                        return "type " + f.inType + " of " + f.name + " is not decoded; stopped there";
                    }
                }
                items.add(v);
            }
            values.put(f.name, array ? items : items.isEmpty() ? null : items.get(0));
            if (f.isHex()) {
                hex.add(f.name);
            }
        }
        return null;
    }

    /** A number, or the value of an earlier field of that name; {@code otherwise} when absent; -1 when not known. */
    private static long resolve(String ref, Map<String, Object> values, long otherwise) {
        if (ref == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(ref);
        } catch (NumberFormatException e) {
            Object v = values.get(ref);
            return v instanceof Long ? (Long) v : -1;
        }
    }

    private static Object value(FieldDefinition f, PayloadCursor in, Map<String, Object> values) throws PayloadCursor.PayloadEnded {
        String n = f.name;
        switch (f.inType) {
            case "win:UInt8":
                return (long) in.u8(n);
            case "win:Int8":
                return (long) in.s8(n);
            case "win:UInt16":
                return (long) in.u16(n);
            case "win:Int16":
                return (long) (short) in.u16(n);
            case "win:UInt32":
            case "win:HexInt32":
                return in.u32(n);
            case "win:Int32":
                return (long) in.s32(n);
            case "win:UInt64":
            case "win:Int64":
            case "win:HexInt64":
                return in.u64(n);
            case "win:Pointer":
                return in.pointer(n);
            case "win:Boolean":
                return in.u32(n) != 0 ? 1L : 0L; // a 4-byte BOOL
            case "win:Float":
                return (double) Float.intBitsToFloat((int) in.u32(n));
            case "win:Double":
                return Double.longBitsToDouble(in.u64(n));
            case "win:GUID":
                return dev.jetw.etl.Guids.get(ByteBuffer.wrap(in.bytes(16, n)), 0).toString();
            case "win:FILETIME":
                return in.u64(n);
            case "win:UnicodeString": {
                long chars = resolve(f.length, values, -2);
                return chars == -2 ? in.utf16z(n) : chars >= 0 ? in.utf16Fixed((int) chars, n) : null;
            }
            case "win:AnsiString": {
                long bytes = resolve(f.length, values, -2);
                return bytes == -2 ? in.ansiz(n) : bytes >= 0
                        ? new String(in.bytes((int) bytes, n), java.nio.charset.StandardCharsets.ISO_8859_1) : null;
            }
            case "win:Binary": {
                long bytes = resolve(f.length, values, -1);
                if (bytes < 0) {
                    return null;
                }
                StringBuilder s = new StringBuilder();
                for (byte b : in.bytes((int) bytes, n)) {
                    s.append(String.format("%02x", b & 0xFF));
                }
                return s.toString();
            }
            default:
                return null;
        }
    }
}

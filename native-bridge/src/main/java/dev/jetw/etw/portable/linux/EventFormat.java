package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An event's record layout from events/SYSTEM/NAME/format: its id (the common_type of its records) and each
 * field's offset, size and signedness by name, so no layout is hard-coded (they change between kernels:
 * sched_switch's prev_state went from long to int and back, block events gained fields).
 */
final class EventFormat {

    /** One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line. */
    public static final class Field {
        public final String type;
        public final String name;
        public final int offset;
        public final int size;
        public final boolean signed;

        Field(String type, String name, int offset, int size, boolean signed) {
            this.type = type;
            this.name = name;
            this.offset = offset;
            this.size = size;
            this.signed = signed;
        }

        /** __data_loc: a u32 holding (length << 16 | offset from record start) of a variable part. */
        public boolean isDataLoc() {
            return type.startsWith("__data_loc");
        }

        /** __rel_loc: like __data_loc, the offset counted from the end of this field. */
        public boolean isRelLoc() {
            return type.startsWith("__rel_loc");
        }

        @Override
        public String toString() {
            return type + " " + name + "@" + offset + "/" + size + (signed ? "s" : "");
        }
    }

    public final String system;
    public final String name;
    public final int id;
    public final Map<String, Field> fields;
    public final String printFmt;

    EventFormat(String system, String name, int id, Map<String, Field> fields, String printFmt) {
        this.system = system;
        this.name = name;
        this.id = id;
        this.fields = fields;
        this.printFmt = printFmt;
    }

    public static EventFormat read(File instanceOrRoot, String system, String name) throws IOException {
        File f = new File(instanceOrRoot, "events/" + system + "/" + name + "/format");
        return parse(system, TextFiles.read(f));
    }

    public static EventFormat parse(String system, String text) throws IOException {
        String name = null;
        int id = -1;
        String printFmt = "";
        Map<String, Field> fields = new LinkedHashMap<String, Field>();
        for (String line : text.split("\n")) {
            String t = line.trim();
            if (t.startsWith("name:")) {
                name = t.substring(5).trim();
            } else if (t.startsWith("ID:")) {
                id = Integer.parseInt(t.substring(3).trim());
            } else if (t.startsWith("print fmt:")) {
                printFmt = t.substring(10).trim();
            } else {
                Field f = parseField(line);
                if (f != null) {
                    fields.put(f.name, f);
                }
            }
        }
        if (name == null || id < 0) {
            throw new IOException("not an event format:\n" + text);
        }
        return new EventFormat(system, name, id, fields, printFmt);
    }

    /** Parses a field line, or returns null for other lines. */
    static Field parseField(String line) {
        String t = line.trim();
        if (!t.startsWith("field:")) {
            return null;
        }
        String[] parts = t.split(";");
        String decl = parts[0].substring(6).trim();
        int offset = -1;
        int size = -1;
        boolean signed = false;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            if (p.startsWith("offset:")) {
                offset = Integer.parseInt(p.substring(7));
            } else if (p.startsWith("size:")) {
                size = Integer.parseInt(p.substring(5));
            } else if (p.startsWith("signed:")) {
                signed = p.substring(7).equals("1");
            }
        }
        int sp = decl.lastIndexOf(' ');
        String fname = decl.substring(sp + 1);
        int br = fname.indexOf('[');
        if (br >= 0) {
            fname = fname.substring(0, br);
        }
        return new Field(decl.substring(0, Math.max(sp, 0)).trim(), fname, offset, size, signed);
    }

    public Field field(String fieldName) {
        Field f = fields.get(fieldName);
        if (f == null) {
            throw new IllegalArgumentException(system + "/" + name + " has no field " + fieldName + ": " + fields.keySet());
        }
        return f;
    }

    /** Offset of a field, or -1 when this kernel's event lacks it. */
    public int offsetOrMinus1(String fieldName) {
        Field f = fields.get(fieldName);
        return f == null ? -1 : f.offset;
    }

    // ---- readers over a record (b positioned anywhere; rec = offset of the record's payload in b) ----

    /** An integer field of any size 1/2/4/8, sign-extended when the field is signed. */
    public static long integer(ByteBuffer b, int rec, Field f) {
        int at = rec + f.offset;
        switch (f.size) {
            case 1:
                return f.signed ? b.get(at) : b.get(at) & 0xFF;
            case 2:
                return f.signed ? b.getShort(at) : b.getShort(at) & 0xFFFF;
            case 4:
                return f.signed ? b.getInt(at) : b.getInt(at) & 0xFFFFFFFFL;
            case 8:
                return b.getLong(at);
            default:
                throw new IllegalArgumentException("integer of size " + f.size + ": " + f);
        }
    }

    /** A char[N] field up to its first NUL. */
    public static String chars(ByteBuffer b, int rec, Field f) {
        return cstring(b, rec + f.offset, f.size);
    }

    /** A __data_loc / __rel_loc string field. */
    public static String dynString(ByteBuffer b, int rec, Field f) {
        int loc = b.getInt(rec + f.offset);
        int off = loc & 0xFFFF;
        int len = loc >>> 16;
        int start = f.isRelLoc() ? rec + f.offset + f.size + off : rec + off;
        return cstring(b, start, len);
    }

    static String cstring(ByteBuffer b, int at, int max) {
        int n = 0;
        while (n < max && b.get(at + n) != 0) {
            n++;
        }
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = b.get(at + i);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return system + "/" + name + " id " + id + " " + fields.values();
    }
}

package dev.jetw.etw.windows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads data out of GNU assembler text produced by {@code gcc -S}: the bytes laid down after a
 * label (.byte/.word/.value/.short/.long/.int/.quad/.ascii/.asciz/.string/.zero/.space), and the
 * stdcall decorations ({@code _Name@N}) of the symbols it references. We cannot run a Windows
 * .exe on Linux, but the compiler writes every constant it computed into the assembly.
 */
final class ProbeAssembly {

    private static final Pattern LABEL = Pattern.compile("^([A-Za-z_.$][\\w.$@]*):\\s*$");
    private static final Pattern STDCALL = Pattern.compile("\\b_([A-Za-z]\\w*)@(\\d+)\\b");

    private final String[] lines;

    ProbeAssembly(String text) {
        this.lines = text.split("\\R");
    }

    /** The bytes after {@code label} (or its i686 spelling {@code _label}); null when the label is absent. */
    byte[] bytesAt(String label) {
        int start = -1;
        for (int i = 0; i < lines.length && start < 0; i++) {
            Matcher m = LABEL.matcher(lines[i].trim());
            if (m.matches() && (m.group(1).equals(label) || m.group(1).equals("_" + label))) {
                start = i + 1;
            }
        }
        if (start < 0) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = start; i < lines.length; i++) {
            String line = lines[i].trim();
            if (LABEL.matcher(line).matches() || !appendData(line, out)) {
                break;
            }
        }
        return out.toByteArray();
    }

    /** {@code count} little-endian 64-bit values after {@code label}. */
    long[] longsAt(String label, int count) {
        byte[] b = bytesAt(label);
        if (b == null || b.length < 8L * count) {
            throw new IllegalStateException("label " + label + " holds " + (b == null ? "nothing" : b.length + " bytes")
                    + ", expected " + 8L * count);
        }
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
            v[i] = buf.getLong();
        }
        return v;
    }

    /** Every stdcall-decorated symbol referenced in the text: name to argument bytes. */
    Map<String, Integer> stdcallDecorations() {
        Map<String, Integer> result = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = STDCALL.matcher(line);
            while (m.find()) {
                result.put(m.group(1), Integer.parseInt(m.group(2)));
            }
        }
        return result;
    }

    /** Appends the bytes of one data directive; false when the line is not one (the data ended). */
    private static boolean appendData(String line, ByteArrayOutputStream out) {
        String[] parts = line.split("\\s+", 2);
        String directive = parts[0];
        String operand = parts.length > 1 ? parts[1].trim() : "";
        switch (directive) {
            case ".byte":
                return integers(operand, 1, out);
            case ".word":
            case ".value":
            case ".short":
            case ".2byte":
                return integers(operand, 2, out);
            case ".long":
            case ".int":
            case ".4byte":
                return integers(operand, 4, out);
            case ".quad":
            case ".8byte":
                return integers(operand, 8, out);
            case ".ascii":
                out.writeBytes(unescape(operand));
                return true;
            case ".asciz":
            case ".string":
                out.writeBytes(unescape(operand));
                out.write(0);
                return true;
            case ".zero":
            case ".space":
            case ".skip":
                out.writeBytes(new byte[Integer.parseInt(operand.split(",")[0].trim())]);
                return true;
            default:
                return false;
        }
    }

    private static boolean integers(String operand, int width, ByteArrayOutputStream out) {
        for (String item : operand.split(",")) {
            String t = item.trim();
            long v;
            try {
                v = t.startsWith("0x") || t.startsWith("-0x")
                        ? (t.startsWith("-") ? -Long.parseUnsignedLong(t.substring(3), 16) : Long.parseUnsignedLong(t.substring(2), 16))
                        : (t.startsWith("-") ? Long.parseLong(t) : Long.parseUnsignedLong(t));
            } catch (NumberFormatException e) {
                return false;   // a symbol (relocation), not a number: not data we can read
            }
            for (int i = 0; i < width; i++) {
                out.write((int) (v >>> (8 * i)) & 0xFF);
            }
        }
        return true;
    }

    /** The bytes of a GNU as string literal: "..." with \\ooo octal, \\xhh, \\n, \\t, \\", \\\\ escapes. */
    static byte[] unescape(String quoted) {
        String s = quoted.trim();
        if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
            throw new IllegalArgumentException("not a string literal: " + quoted);
        }
        s = s.substring(1, s.length() - 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.write(c);
                continue;
            }
            char e = s.charAt(++i);
            if (e >= '0' && e <= '7') {
                int v = 0;
                int n = 0;
                while (n < 3 && i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7') {
                    v = v * 8 + (s.charAt(i) - '0');
                    i++;
                    n++;
                }
                i--;
                out.write(v & 0xFF);
            } else if (e == 'x') {
                int v = 0;
                while (i + 1 < s.length() && Character.digit(s.charAt(i + 1), 16) >= 0) {
                    v = v * 16 + Character.digit(s.charAt(++i), 16);
                }
                out.write(v & 0xFF);
            } else {
                switch (e) {
                    case 'n': out.write('\n'); break;
                    case 't': out.write('\t'); break;
                    case 'r': out.write('\r'); break;
                    case 'b': out.write('\b'); break;
                    case 'f': out.write('\f'); break;
                    default: out.write(e);   // \" and \\ and anything else: the character itself
                }
            }
        }
        return out.toByteArray();
    }
}

package dev.jetw.analysis.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test-side strict JSON parser (RFC 8259): objects become LinkedHashMap, arrays ArrayList, numbers
 * BigDecimal, plus String, Boolean and null. Anything else (trailing commas, NaN, garbage after the
 * value) fails, so tests also check that the tools' output is valid JSON.
 */
final class MiniJson {

    private final String s;
    private int p;

    private MiniJson(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        MiniJson j = new MiniJson(text);
        j.ws();
        Object v = j.value();
        j.ws();
        if (j.p != text.length()) {
            throw j.error("trailing characters");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at " + p + ": "
                + s.substring(Math.max(0, p - 20), Math.min(s.length(), p + 20)));
    }

    private void ws() {
        while (p < s.length() && " \t\r\n".indexOf(s.charAt(p)) >= 0) {
            p++;
        }
    }

    private Object value() {
        if (p >= s.length()) {
            throw error("end of input");
        }
        char c = s.charAt(p);
        switch (c) {
            case '{': return obj();
            case '[': return arr();
            case '"': return str();
            case 't': return lit("true", Boolean.TRUE);
            case 'f': return lit("false", Boolean.FALSE);
            case 'n': return lit("null", null);
            default: return num();
        }
    }

    private Object lit(String word, Object v) {
        if (!s.startsWith(word, p)) {
            throw error("bad literal");
        }
        p += word.length();
        return v;
    }

    private Map<String, Object> obj() {
        Map<String, Object> m = new LinkedHashMap<>();
        p++;
        ws();
        if (s.charAt(p) == '}') {
            p++;
            return m;
        }
        while (true) {
            ws();
            if (s.charAt(p) != '"') {
                throw error("expected a name");
            }
            String k = str();
            ws();
            expect(':');
            ws();
            if (m.containsKey(k)) {
                throw error("duplicate name " + k);
            }
            m.put(k, value());
            ws();
            if (s.charAt(p) == ',') {
                p++;
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> arr() {
        List<Object> a = new ArrayList<>();
        p++;
        ws();
        if (s.charAt(p) == ']') {
            p++;
            return a;
        }
        while (true) {
            ws();
            a.add(value());
            ws();
            if (s.charAt(p) == ',') {
                p++;
                continue;
            }
            expect(']');
            return a;
        }
    }

    private void expect(char c) {
        if (p >= s.length() || s.charAt(p) != c) {
            throw error("expected '" + c + "'");
        }
        p++;
    }

    private String str() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(p++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c == '\\') {
                char e = s.charAt(p++);
                switch (e) {
                    case '"': b.append('"'); break;
                    case '\\': b.append('\\'); break;
                    case '/': b.append('/'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(p, p + 4), 16));
                        p += 4;
                        break;
                    default: throw error("bad escape");
                }
            } else {
                b.append(c);
            }
        }
    }

    private BigDecimal num() {
        int start = p;
        if (s.charAt(p) == '-') {
            p++;
        }
        while (p < s.length() && "0123456789.eE+-".indexOf(s.charAt(p)) >= 0) {
            p++;
        }
        String t = s.substring(start, p);
        if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error("bad number '" + t + "'");
        }
        return new BigDecimal(t);
    }
}

package dev.jetw.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader for the block-style YAML subset a GitHub workflow uses: mappings, sequences, plain,
 * quoted and {@code |} block scalars, one-line flow sequences, comments. Anything outside the subset
 * or malformed (tabs, odd indentation, duplicate keys, unclosed quotes, {@code ": "} in a plain scalar)
 * is an error naming the line. Written for the workflow check: the project takes no YAML dependency.
 * Mappings become {@code Map<String, Object>}, sequences {@code List<Object>}, scalars {@code String}
 * (null for an empty value).
 */
final class MiniYaml {

    static final class YamlException extends RuntimeException {
        YamlException(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    private final String[] lines;
    private int next;

    private MiniYaml(String text) {
        this.lines = text.replace("\r\n", "\n").split("\n", -1);
    }

    static Object parse(String text) {
        MiniYaml y = new MiniYaml(text);
        y.skipBlank();
        if (y.next >= y.lines.length) {
            return null;
        }
        if (y.indent(y.next) != 0) {
            throw new YamlException(y.next + 1, "the document must start at column 0");
        }
        Object root = y.block(0);
        y.skipBlank();
        if (y.next < y.lines.length) {
            throw new YamlException(y.next + 1, "unexpected indentation");
        }
        return root;
    }

    /** The block (mapping or sequence) whose lines start at column {@code indent}. */
    private Object block(int indent) {
        return content(next).startsWith("-") && isDash(content(next)) ? sequence(indent) : mapping(indent);
    }

    private static boolean isDash(String c) {
        return c.equals("-") || c.startsWith("- ");
    }

    private Map<String, Object> mapping(int indent) {
        Map<String, Object> map = new LinkedHashMap<>();
        while (true) {
            skipBlank();
            if (next >= lines.length || indent(next) < indent) {
                return map;
            }
            if (indent(next) > indent) {
                throw new YamlException(next + 1, "unexpected indentation (expected column " + indent + ")");
            }
            entry(map, indent, content(next));
        }
    }

    /** One {@code key: value} at column {@code indent}, from {@code text} (the line without indentation). */
    private void entry(Map<String, Object> map, int indent, String text) {
        int line = next + 1;
        String c = stripComment(text, line);
        int colon = c.indexOf(": ");
        String key;
        String value;
        if (c.endsWith(":") && (colon < 0 || colon == c.length() - 1)) {
            key = c.substring(0, c.length() - 1);
            value = "";
        } else if (colon > 0) {
            key = c.substring(0, colon);
            value = c.substring(colon + 2).trim();
        } else {
            throw new YamlException(line, "expected 'key: value' or 'key:', found '" + c + "'");
        }
        key = key.trim();
        if (key.isEmpty() || key.startsWith("\"") || key.startsWith("'") || key.contains(" #")) {
            throw new YamlException(line, "unsupported key '" + key + "'");
        }
        if (map.containsKey(key)) {
            throw new YamlException(line, "duplicate key '" + key + "'");
        }
        next++;
        map.put(key, value(value, indent, line));
    }

    /** The value after a key (or a dash): inline scalar, block scalar, or a nested block. */
    private Object value(String value, int indent, int line) {
        if (value.equals("|") || value.equals("|-")) {
            return blockScalar(indent, line);
        }
        if (!value.isEmpty()) {
            return scalar(value, line);
        }
        skipBlank();
        if (next < lines.length && indent(next) > indent) {
            return block(indent(next));
        }
        if (next < lines.length && indent(next) == indent && isDash(content(next))) {
            return sequence(indent);
        }
        return null;
    }

    private List<Object> sequence(int indent) {
        List<Object> list = new ArrayList<>();
        while (true) {
            skipBlank();
            if (next >= lines.length || indent(next) != indent || !isDash(content(next))) {
                if (next < lines.length && indent(next) > indent) {
                    throw new YamlException(next + 1, "unexpected indentation in a sequence");
                }
                return list;
            }
            int line = next + 1;
            String item = stripComment(content(next), line).substring(1).trim();
            if (item.isEmpty()) {
                next++;
                list.add(value("", indent, line));
            } else if (looksLikeEntry(item)) {
                // "- key: value": a mapping whose further keys sit at the column of "key".
                Map<String, Object> map = new LinkedHashMap<>();
                int inner = indent + 2;
                entry(map, inner, item);
                map.putAll(checkedRest(map, inner));
                list.add(map);
            } else {
                next++;
                list.add(scalar(item, line));
            }
        }
    }

    private Map<String, Object> checkedRest(Map<String, Object> first, int inner) {
        int line = next + 1;
        Map<String, Object> rest = mapping(inner);
        for (String k : rest.keySet()) {
            if (first.containsKey(k)) {
                throw new YamlException(line, "duplicate key '" + k + "'");
            }
        }
        return rest;
    }

    private static boolean looksLikeEntry(String item) {
        if (item.startsWith("\"") || item.startsWith("'") || item.startsWith("[")) {
            return false;
        }
        return item.contains(": ") || item.endsWith(":");
    }

    private String blockScalar(int indent, int line) {
        StringBuilder sb = new StringBuilder();
        int column = -1;
        while (next < lines.length && (lines[next].trim().isEmpty() || indent(next) > indent)) {
            if (!lines[next].trim().isEmpty()) {
                column = column < 0 ? indent(next) : column;
                if (indent(next) < column) {
                    throw new YamlException(next + 1, "block scalar line less indented than its first line");
                }
                sb.append(lines[next].substring(column));
            }
            sb.append('\n');
            next++;
        }
        if (column < 0) {
            throw new YamlException(line, "empty block scalar");
        }
        return sb.toString().replaceAll("\n+$", "\n");
    }

    private static Object scalar(String v, int line) {
        if (v.startsWith("[")) {
            if (!v.endsWith("]")) {
                throw new YamlException(line, "unclosed flow sequence '" + v + "'");
            }
            List<Object> items = new ArrayList<>();
            String inner = v.substring(1, v.length() - 1).trim();
            if (!inner.isEmpty()) {
                for (String item : inner.split(",")) {
                    items.add(scalar(item.trim(), line));
                }
            }
            return items;
        }
        if (v.startsWith("'")) {
            if (v.length() < 2 || !v.endsWith("'") || v.substring(1, v.length() - 1).replace("''", "").contains("'")) {
                throw new YamlException(line, "malformed single-quoted scalar " + v);
            }
            return v.substring(1, v.length() - 1).replace("''", "'");
        }
        if (v.startsWith("\"")) {
            if (v.length() < 2 || !v.endsWith("\"") || v.substring(1, v.length() - 1).replace("\\\"", "").contains("\"")) {
                throw new YamlException(line, "malformed double-quoted scalar " + v);
            }
            return v.substring(1, v.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        if (v.startsWith("{") || v.startsWith("&") || v.startsWith("*") || v.startsWith("!") || v.startsWith("%")
                || v.startsWith("@") || v.startsWith("`") || v.startsWith(">")) {
            throw new YamlException(line, "unsupported or reserved start of a scalar: " + v);
        }
        if (v.contains(": ")) {
            throw new YamlException(line, "': ' inside a plain scalar (quote it): " + v);
        }
        return v;
    }

    /** The text before a comment ({@code #} at the start or after a space, outside quotes), trimmed. */
    private static String stripComment(String text, int line) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                }
            } else if (ch == '\'' || ch == '"') {
                boolean startsValue = i == 0 || text.charAt(i - 1) == ' ';
                quote = startsValue ? ch : 0;
            } else if (ch == '#' && (i == 0 || text.charAt(i - 1) == ' ')) {
                return text.substring(0, i).trim();
            }
        }
        if (quote != 0) {
            throw new YamlException(line, "unclosed quote");
        }
        return text.trim();
    }

    private String content(int i) {
        return lines[i].substring(indent(i));
    }

    private int indent(int i) {
        String l = lines[i];
        int n = 0;
        while (n < l.length() && l.charAt(n) == ' ') {
            n++;
        }
        if (n < l.length() && l.charAt(n) == '\t') {
            throw new YamlException(i + 1, "tab in indentation (YAML allows spaces only)");
        }
        return n;
    }

    /** Skips blank and comment-only lines. */
    private void skipBlank() {
        while (next < lines.length && (lines[next].trim().isEmpty() || lines[next].trim().startsWith("#"))) {
            next++;
        }
    }
}

package dev.jetw.analysis.manifest;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads an instrumentation manifest (the {@code .man} XML that mc.exe compiles and wevtutil installs;
 * schema "http://schemas.microsoft.com/win/2004/08/events"): per provider its GUID and name, its templates
 * (fields with input types, counts and lengths, structs) and its events (id, version, symbol, task,
 * opcode, template). Keywords, levels, maps and localized strings are not needed to decode and are not
 * read. The XML parser refuses DOCTYPEs, so a manifest cannot pull in external entities.
 */
public final class ManifestReader {

    private ManifestReader() {
    }

    /** Adds the providers and events of the manifest in {@code in} to {@code into}. */
    public static void read(InputStream in, InstrumentationManifest into) throws IOException {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            doc = b.parse(in);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("not a readable instrumentation manifest: " + e.getMessage(), e);
        }
        for (Element provider : descendants(doc.getDocumentElement(), "provider")) {
            try {
                readProvider(provider, into);
            } catch (NumberFormatException e) {
                throw new IOException("provider " + provider.getAttribute("name") + ": not a number: " + e.getMessage(), e);
            }
        }
    }

    private static void readProvider(Element provider, InstrumentationManifest into) throws IOException {
        String name = provider.getAttribute("name");
        UUID guid;
        try {
            guid = UUID.fromString(provider.getAttribute("guid").replace("{", "").replace("}", "").trim());
        } catch (IllegalArgumentException e) {
            throw new IOException("provider " + name + " has no valid guid: " + provider.getAttribute("guid"), e);
        }
        into.addProvider(guid, name);
        Map<String, List<FieldDefinition>> templates = new HashMap<>();
        for (Element t : descendants(provider, "template")) {
            templates.put(t.getAttribute("tid"), fields(t));
        }
        for (Element e : descendants(provider, "event")) {
            if (!e.hasAttribute("value")) {
                continue;
            }
            int id = Integer.decode(e.getAttribute("value").trim());
            int version = e.hasAttribute("version") ? Integer.decode(e.getAttribute("version").trim()) : 0;
            String template = e.getAttribute("template");
            List<FieldDefinition> fields = template.isEmpty() ? new ArrayList<FieldDefinition>() : templates.get(template);
            if (fields == null) {
                throw new IOException("event " + id + " of " + name + " uses undeclared template " + template);
            }
            into.addEvent(guid, new EventDefinition(name, id, version, attr(e, "symbol"), attr(e, "task"),
                    opcodeName(attr(e, "opcode")), fields));
        }
    }

    /** "win:Start" → "Start"; win:Info (the default) → null: such events go by their task alone. */
    private static String opcodeName(String opcode) {
        if (opcode == null || opcode.equals("win:Info")) {
            return null;
        }
        return opcode.startsWith("win:") ? opcode.substring(4) : opcode;
    }

    private static List<FieldDefinition> fields(Element parent) {
        List<FieldDefinition> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element)) {
                continue;
            }
            Element e = (Element) n;
            if ("data".equals(e.getLocalName())) {
                out.add(new FieldDefinition(e.getAttribute("name"), e.getAttribute("inType"), attr(e, "outType"),
                        attr(e, "count"), attr(e, "length"), null));
            } else if ("struct".equals(e.getLocalName())) {
                out.add(new FieldDefinition(e.getAttribute("name"), null, null, attr(e, "count"), attr(e, "length"), fields(e)));
            }
        }
        return out;
    }

    private static String attr(Element e, String name) {
        String v = e.getAttribute(name);
        return v.isEmpty() ? null : v.trim();
    }

    private static List<Element> descendants(Element root, String localName) {
        List<Element> out = new ArrayList<>();
        org.w3c.dom.NodeList all = root.getElementsByTagNameNS("*", localName);
        for (int i = 0; i < all.getLength(); i++) {
            out.add((Element) all.item(i));
        }
        return out;
    }
}

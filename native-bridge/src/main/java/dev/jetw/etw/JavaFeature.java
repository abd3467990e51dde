package dev.jetw.etw;

/**
 * The feature version of a Java runtime from its {@code java.specification.version} ("1.8" is 8, "17" is 17, "25" is
 * 25): one reading for every place that decides by it (the JFR bridge, the FFM and perf bindings, the attach's note on
 * JDK 17 and older, the selftest). Release 8 has no {@code Runtime.version()}.
 */
public final class JavaFeature {

    private JavaFeature() {
    }

    /** Of the running JVM; 0 when its specification version cannot be read. */
    public static int current() {
        return of(System.getProperty("java.specification.version", ""));
    }

    /** 8 for "1.8", else the leading number; 0 when there is none. */
    public static int of(String specificationVersion) {
        String v = specificationVersion.startsWith("1.") ? specificationVersion.substring(2) : specificationVersion;
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}

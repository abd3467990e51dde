package dev.jetw.agent.core.instrument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The class file of a class already loaded, read as its loader serves it (the same bytes Byte Buddy's class-file locator
 * reads): what the tests on a loaded class that its name cannot answer look at (a NaN constant, a selecting
 * annotation) before the class is retransformed.
 */
final class LoadedClassFiles {

    private LoadedClassFiles() {
    }

    /** The class file, or null when its loader does not serve it. */
    static byte[] read(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(resource) : loader.getResourceAsStream(resource)) {
            return in == null ? null : readAll(in);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        for (int n; (n = in.read(chunk)) > 0; ) {
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }
}

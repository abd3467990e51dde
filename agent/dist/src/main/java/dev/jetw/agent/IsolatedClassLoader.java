package dev.jetw.agent;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * Loads the agent's core, Byte Buddy, JNA and the native bridge from the jars extracted out of
 * jetw-agent.jar. Its parent is the platform class loader (JDK 9+) or the extension class loader (JDK 8),
 * never the application class loader: the application's own Byte Buddy or JNA, in whatever version,
 * can neither shadow ours nor see ours. JNA cannot be relocated (its native library binds
 * {@code com.sun.jna} names), so this isolation, not shading, is what keeps two JNAs apart.
 */
final class IsolatedClassLoader extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    private IsolatedClassLoader(URL[] urls, ClassLoader parent) {
        super(urls, parent);
    }

    static IsolatedClassLoader over(List<File> jars) throws JetwFailure {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toURI().toURL();
            } catch (MalformedURLException e) {
                throw new JetwFailure("library " + jars.get(i), JetwFailure.describe(e), e);
            }
        }
        // getSystemClassLoader().getParent() is the platform loader on 9+ and the extension loader on 8.
        return new IsolatedClassLoader(urls, ClassLoader.getSystemClassLoader().getParent());
    }

    @Override
    public String toString() {
        return "jetw isolated class loader";
    }
}

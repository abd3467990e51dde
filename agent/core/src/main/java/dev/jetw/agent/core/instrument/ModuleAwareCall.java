package dev.jetw.agent.core.instrument;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Hands a class being loaded to another transformer with the module the class belongs to. The JVM gives a
 * transformer the module only through {@code transform(Module, ...)}, which code at bytecode level 8 cannot
 * override, so {@link FirstMatchTransformer} receives none; Byte Buddy needs it for a class of a named module (the
 * advice's calls into the boot class path need a read edge that Byte Buddy adds, or the first call would throw
 * IllegalAccessError). The module is found as the JVM defines it: a package of a boot-layer module defined to that
 * loader, otherwise the loader's unnamed module. On Java 8 there are no modules and the plain call is made.
 */
final class ModuleAwareCall {

    /** {@code ClassFileTransformer.transform(Module, ClassLoader, ...)}, or null before Java 9. */
    private final Method transformInModule;
    private final Method unnamedModuleOf;
    private final Method moduleClassLoader;
    /** The boot layer's packages (dotted) and their modules; built at the first call. */
    /** Volatile: read without the lock once built (the direct path asks at every class load it is handed). */
    private volatile Map<String, Object> bootLayerPackages;
    private final Object bootUnnamedModule;

    ModuleAwareCall() {
        Method transform = null;
        Method unnamed = null;
        Method loaderOf = null;
        Object bootUnnamed = null;
        try {
            Class<?> module = Class.forName("java.lang.Module");
            transform = ClassFileTransformer.class.getMethod("transform", module, ClassLoader.class, String.class, Class.class,
                    ProtectionDomain.class, byte[].class);
            unnamed = ClassLoader.class.getMethod("getUnnamedModule");
            loaderOf = module.getMethod("getClassLoader");
            // The bootstrap classes are on the boot class path: their module is the boot loader's unnamed one.
            Object m = Class.class.getMethod("getModule").invoke(dev.jetw.bootstrap.Dispatcher.class);
            bootUnnamed = dev.jetw.bootstrap.Dispatcher.class.getClassLoader() == null ? m : null;
        } catch (ClassNotFoundException e) {
            transform = null; // Java 8
        } catch (ReflectiveOperationException | RuntimeException e) {
            transform = null;
        }
        this.transformInModule = transform;
        this.unnamedModuleOf = unnamed;
        this.moduleClassLoader = loaderOf;
        this.bootUnnamedModule = bootUnnamed;
    }

    byte[] transform(ClassFileTransformer target, ClassLoader loader, String internalName, ProtectionDomain pd, byte[] classFile)
            throws IllegalClassFormatException {
        Object module = transformInModule == null ? null : moduleOf(loader, internalName);
        if (module == null) {
            return target.transform(loader, internalName, null, pd, classFile);
        }
        try {
            return (byte[]) transformInModule.invoke(target, module, loader, internalName, null, pd, classFile);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalClassFormatException) {
                throw (IllegalClassFormatException) cause;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * True when the class being defined belongs to a named module of the boot layer (a JDK module, or an application
     * module on the module path): woven code there needs a read edge to the boot class path. False on Java 8.
     */
    boolean isInNamedModule(ClassLoader loader, String internalName) {
        if (transformInModule == null) {
            return false;
        }
        try {
            return namedModuleOf(loader, internalName) != null;
        } catch (ReflectiveOperationException e) {
            return true; // cannot tell: Byte Buddy's path, which adds the edge when it is needed
        }
    }

    /** The module of a class being defined, or null when it cannot be told (Java 8, or the boot loader without the bootstrap jar). */
    private Object moduleOf(ClassLoader loader, String internalName) {
        try {
            Object named = namedModuleOf(loader, internalName);
            if (named != null) {
                return named;
            }
            return loader == null ? bootUnnamedModule : unnamedModuleOf.invoke(loader);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** The boot layer's named module the class being defined belongs to, or null (an unnamed module). */
    private Object namedModuleOf(ClassLoader loader, String internalName) throws ReflectiveOperationException {
        int slash = internalName.lastIndexOf('/');
        String pkg = slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
        Object named = bootLayerPackages().get(pkg);
        return named != null && moduleClassLoader.invoke(named) == loader ? named : null;
    }

    private Map<String, Object> bootLayerPackages() throws ReflectiveOperationException {
        Map<String, Object> built = bootLayerPackages;
        return built != null ? built : buildBootLayerPackages();
    }

    private synchronized Map<String, Object> buildBootLayerPackages() throws ReflectiveOperationException {
        if (bootLayerPackages == null) {
            Class<?> layerClass = Class.forName("java.lang.ModuleLayer");
            Object boot = layerClass.getMethod("boot").invoke(null);
            Method packages = Class.forName("java.lang.Module").getMethod("getPackages");
            Map<String, Object> map = new HashMap<>();
            for (Object m : (Set<?>) layerClass.getMethod("modules").invoke(boot)) {
                for (Object p : (Set<?>) packages.invoke(m)) {
                    map.put((String) p, m);
                }
            }
            bootLayerPackages = map;
        }
        return bootLayerPackages;
    }
}

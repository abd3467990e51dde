package com.acme.app;

/** What the test applications ask of a class loader. */
final class Loaders {

    private Loaders() {
    }

    /** True when {@code loader} (null: the boot loader) finds class {@code name}, without initializing it. */
    static boolean canLoad(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

package io.faultline.agent.instrumentation;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The JVM's {@link Instrumentation} with one difference: transformers are added to (and removed
 * from) the agent's {@link DeferredTransformer} instead of the JVM, so modules installed on a
 * background thread are called for classes whose loading began before they were installed.
 * Retransformation reaches them through the deferred transformer, which the JVM calls for
 * retransformations too.
 */
public final class DeferringInstrumentation implements Instrumentation {

  private final Instrumentation jvm;
  private final DeferredTransformer deferred;
  private final ClassFileFilter filter;
  // By identity: a transformer's equals must never merge two.
  private final java.util.Map<ClassFileTransformer, ClassFileTransformer> added =
      java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

  /** A cheap look at a class file before a transformer is asked about it. */
  @FunctionalInterface
  public interface ClassFileFilter {
    /**
     * @param internalName the class's internal name ({@code a/b/C})
     * @param loader its loader, {@code null} for the bootstrap loader
     * @param classFile the class file as the transformer would see it
     * @return false when the transformer certainly leaves the class alone
     */
    boolean mayTransform(String internalName, ClassLoader loader, byte[] classFile);
  }

  /** Forwards to {@code jvm}; {@code deferred} must be registered there (retransform-capable). */
  public DeferringInstrumentation(Instrumentation jvm, DeferredTransformer deferred) {
    this(jvm, deferred, null);
  }

  private DeferringInstrumentation(
      Instrumentation jvm, DeferredTransformer deferred, ClassFileFilter filter) {
    this.jvm = jvm;
    this.deferred = deferred;
    this.filter = filter;
  }

  /**
   * The same, but a transformer added through the result is called only for the class files {@code
   * filter} lets through: for a module whose matching would otherwise parse every class.
   */
  public DeferringInstrumentation filtered(ClassFileFilter filter) {
    return new DeferringInstrumentation(jvm, deferred, filter);
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
    addTransformer(transformer);
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer) {
    deferred.add(added.computeIfAbsent(transformer, this::withFilter));
  }

  @Override
  public boolean removeTransformer(ClassFileTransformer transformer) {
    ClassFileTransformer registered = added.remove(transformer);
    return deferred.remove(registered == null ? transformer : registered);
  }

  private ClassFileTransformer withFilter(ClassFileTransformer transformer) {
    if (filter == null) {
      return transformer;
    }
    ClassFileFilter f = filter;
    return new ClassFileTransformer() {
      @Override
      public byte[] transform(
          Module module,
          ClassLoader loader,
          String internalName,
          Class<?> classBeingRedefined,
          java.security.ProtectionDomain protectionDomain,
          byte[] classfileBuffer)
          throws java.lang.instrument.IllegalClassFormatException {
        if (internalName != null && !f.mayTransform(internalName, loader, classfileBuffer)) {
          return null;
        }
        return transformer.transform(
            module, loader, internalName, classBeingRedefined, protectionDomain, classfileBuffer);
      }
    };
  }

  @Override
  public boolean isRetransformClassesSupported() {
    return jvm.isRetransformClassesSupported();
  }

  @Override
  public void retransformClasses(Class<?>... classes) throws UnmodifiableClassException {
    jvm.retransformClasses(classes);
  }

  @Override
  public boolean isRedefineClassesSupported() {
    return jvm.isRedefineClassesSupported();
  }

  @Override
  public void redefineClasses(ClassDefinition... definitions)
      throws ClassNotFoundException, UnmodifiableClassException {
    jvm.redefineClasses(definitions);
  }

  @Override
  public boolean isModifiableClass(Class<?> theClass) {
    return jvm.isModifiableClass(theClass);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getAllLoadedClasses() {
    return jvm.getAllLoadedClasses();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getInitiatedClasses(ClassLoader loader) {
    return jvm.getInitiatedClasses(loader);
  }

  @Override
  public long getObjectSize(Object objectToSize) {
    return jvm.getObjectSize(objectToSize);
  }

  @Override
  public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {
    jvm.appendToBootstrapClassLoaderSearch(jarfile);
  }

  @Override
  public void appendToSystemClassLoaderSearch(JarFile jarfile) {
    jvm.appendToSystemClassLoaderSearch(jarfile);
  }

  @Override
  public boolean isNativeMethodPrefixSupported() {
    return jvm.isNativeMethodPrefixSupported();
  }

  @Override
  public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
    jvm.setNativeMethodPrefix(transformer, prefix);
  }

  @Override
  public void redefineModule(
      Module module,
      Set<Module> extraReads,
      Map<String, Set<Module>> extraExports,
      Map<String, Set<Module>> extraOpens,
      Set<Class<?>> extraUses,
      Map<Class<?>, List<Class<?>>> extraProvides) {
    jvm.redefineModule(module, extraReads, extraExports, extraOpens, extraUses, extraProvides);
  }

  @Override
  public boolean isModifiableModule(Module module) {
    return jvm.isModifiableModule(module);
  }
}

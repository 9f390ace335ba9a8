package io.faultline.agent.instrumentation;

import java.lang.System.Logger.Level;
import java.lang.instrument.ClassFileTransformer;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The one class-file transformer the agent registers with the JVM in {@code premain}, so the
 * expensive part of starting (Byte Buddy, the instrumentation modules) can run on a background
 * thread while {@code main} starts. The modules' transformers are added to it through {@link
 * DeferringInstrumentation} and called in order for every class it sees.
 *
 * <p>Until the background installation is {@linkplain #ready() ready}, a thread that loads a class
 * an instrumentation module targets ({@link #gate}) waits for it here, and the class is then woven
 * as if the modules had been installed before: no target class escapes its advice. Classes no
 * module targets load at once. The installing thread itself and the agent's own classes never wait,
 * and nobody waits longer than {@link #MAX_WAIT_SECONDS}: after that the class loads as it is
 * (retransformation weaves it when the installation completes).
 */
public final class DeferredTransformer implements ClassFileTransformer {

  /** Longer than any installation seen (about 1 s on a loaded 2-core machine). */
  static final long MAX_WAIT_SECONDS = 30;

  private static final System.Logger LOG = System.getLogger(DeferredTransformer.class.getName());

  private final List<ClassFileTransformer> delegates = new CopyOnWriteArrayList<>();
  private final CountDownLatch ready = new CountDownLatch(1);
  private final Gate gate;
  private final URL agentCode;
  private volatile Thread installer;

  /** Whether a class that starts loading before the installation is ready must wait for it. */
  @FunctionalInterface
  public interface Gate {
    /**
     * @param className the binary name (dots)
     * @param loader the defining loader, null for the bootstrap loader
     * @param classFile the class file as the JVM read it
     */
    boolean mustWait(String className, ClassLoader loader, byte[] classFile);

    /** Waits when any of {@code modules} {@linkplain InstrumentationModule#mayWeave may weave}. */
    static Gate anyOf(List<InstrumentationModule> modules) {
      List<InstrumentationModule> copy = List.copyOf(modules);
      return (name, loader, bytes) -> {
        for (InstrumentationModule m : copy) {
          if (m.mayWeave(name, loader, bytes)) {
            return true;
          }
        }
        return false;
      };
    }
  }

  /**
   * A transformer whose waiting classes are those {@code gate} picks, never those loaded from
   * {@code agentCode} (the agent jar; null: none exempt).
   */
  public DeferredTransformer(Gate gate, URL agentCode) {
    this.gate = gate;
    this.agentCode = agentCode;
  }

  /** The thread that installs the modules: it never waits at the gate. */
  public void installingOn(Thread thread) {
    this.installer = thread;
  }

  /** The installation finished (or failed): nobody waits any more. */
  public void ready() {
    ready.countDown();
  }

  void add(ClassFileTransformer transformer) {
    delegates.add(transformer);
  }

  boolean remove(ClassFileTransformer transformer) {
    return delegates.remove(transformer);
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (classBeingRedefined == null && internalName != null && ready.getCount() > 0) {
      awaitIfTargeted(internalName, loader, classfileBuffer, protectionDomain);
    }
    byte[] current = classfileBuffer;
    boolean changed = false;
    for (ClassFileTransformer t : delegates) {
      // As the JVM does for its own transformers: one that throws changes nothing and the next
      // still runs (a module whose weave fails must not take another module's advice down).
      try {
        byte[] woven =
            t.transform(
                module, loader, internalName, classBeingRedefined, protectionDomain, current);
        if (woven != null) {
          current = woven;
          changed = true;
        }
      } catch (Throwable e) {
        // the module's listener has reported it
      }
    }
    return changed ? current : null;
  }

  private boolean isAgentCode(ProtectionDomain domain) {
    if (agentCode == null || domain == null) {
      return false;
    }
    CodeSource source = domain.getCodeSource();
    return source != null && agentCode.equals(source.getLocation());
  }

  private void awaitIfTargeted(
      String internalName,
      ClassLoader loader,
      byte[] classFile,
      ProtectionDomain protectionDomain) {
    // The agent's own classes (premain loads some after registering this transformer) are never
    // woven: they must not wait.
    if (Thread.currentThread() == installer || isAgentCode(protectionDomain)) {
      return;
    }
    try {
      if (!gate.mustWait(internalName.replace('/', '.'), loader, classFile)) {
        return;
      }
      if (!ready.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.log(
            Level.WARNING,
            "faultline: the instrumentation was not installed after "
                + MAX_WAIT_SECONDS
                + " s; "
                + internalName
                + " loads without waiting (it is woven when the installation completes)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | LinkageError e) {
      // A gate that cannot decide lets the class through: never fail the application's loading.
    }
  }
}

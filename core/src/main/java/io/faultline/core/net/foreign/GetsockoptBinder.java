package io.faultline.core.net.foreign;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.util.Optional;

/**
 * Links libc's {@code getsockopt} with the Foreign Function &amp; Memory API (JDK 22 and later),
 * through reflection and method handles only: this class is compiled for Java 17 and names no
 * {@code java.lang.foreign} type. Linking is a restricted operation, which the JDK allows quietly
 * only to a module with native access; the class therefore refers to nothing outside {@code
 * java.base}, so the agent can define it alone in a named module and grant that module native
 * access ({@link #enableNativeAccessOfOwnModule}) instead of the whole class path.
 *
 * <p>The call is linked as a critical function with heap access (no thread-state transition, the
 * Java arrays passed as they are) that captures {@code errno}.
 */
public final class GetsockoptBinder {

  /**
   * Index in {@link #bind()}'s answer: {@code (Object state, int fd, int level, int name, byte[]
   * value, int[] length) int}.
   */
  public static final int CALL = 0;

  /**
   * Index in {@link #bind()}'s answer: {@code (Object state) int}, the errno a failed call left.
   */
  public static final int ERRNO = 1;

  /** Index in {@link #bind()}'s answer: {@code () Object}, a new call-state cell for one thread. */
  public static final int NEW_STATE = 2;

  /**
   * Index in {@link #bind()}'s answer: {@code (int fd, long request, int[] value) int}, libc's
   * {@code ioctl} with one {@code int} out-argument, linked critical like {@link #CALL}; null when
   * it could not be linked.
   */
  public static final int IOCTL = 3;

  /** How many handles {@link #bind()} returns when it could not link a netlink dump's calls. */
  public static final int BASE_HANDLES = 4;

  /**
   * Index in {@link #bind()}'s answer, present when it has {@link #NETLINK_HANDLES}: {@code (Object
   * state, int domain, int type, int protocol) int}, libc's {@code socket}.
   */
  public static final int SOCKET = 4;

  /**
   * Index in {@link #bind()}'s answer: {@code (Object state, int fd, Object buffer, long length,
   * int flags, Object address, int addressLength) long}, libc's {@code sendto}; the buffer and
   * address are native segments from {@link #ALLOCATE}.
   */
  public static final int SENDTO = 5;

  /**
   * Index in {@link #bind()}'s answer: {@code (Object state, int fd, Object buffer, long length,
   * int flags) long}, libc's {@code recv} into a native segment.
   */
  public static final int RECV = 6;

  /** Index in {@link #bind()}'s answer: {@code (int fd) int}, libc's {@code close}. */
  public static final int CLOSE = 7;

  /**
   * Index in {@link #bind()}'s answer: {@code (long bytes) Object}, a zeroed native segment freed
   * when it is no longer reachable.
   */
  public static final int ALLOCATE = 8;

  /** Index in {@link #bind()}'s answer: {@code (Object segment) ByteBuffer}, a view of it. */
  public static final int AS_BYTE_BUFFER = 9;

  /**
   * How many handles {@link #bind()} returns when it could also link the calls of a netlink {@code
   * sock_diag} dump; {@link #BASE_HANDLES} when it could not.
   */
  public static final int NETLINK_HANDLES = 10;

  private GetsockoptBinder() {}

  /**
   * Grants this class's module native access. Only for a named module that the agent made for this
   * class alone, with {@code java.base/java.lang} opened to it: an unnamed module's flag would be
   * every class path class's.
   *
   * @throws IllegalStateException when the class is in an unnamed module
   */
  public static void enableNativeAccessOfOwnModule() throws ReflectiveOperationException {
    Module own = GetsockoptBinder.class.getModule();
    if (!own.isNamed()) {
      throw new IllegalStateException("not in a module of its own: " + own);
    }
    MethodHandles.Lookup lookup =
        MethodHandles.privateLookupIn(Module.class, MethodHandles.lookup());
    MethodHandle enable;
    try {
      enable =
          lookup.findVirtual(
              Module.class, "implAddEnableNativeAccess", MethodType.methodType(Module.class));
    } catch (NoSuchMethodException e) {
      enable =
          lookup.findVirtual(
              Module.class, "implAddEnableNativeAccess", MethodType.methodType(void.class));
    }
    try {
      enable.invoke(own);
    } catch (Throwable e) {
      throw new ReflectiveOperationException("enabling native access failed", e);
    }
  }

  /**
   * The linked call, errno reader, state factory and {@code ioctl}, indexed by {@link #CALL},
   * {@link #ERRNO}, {@link #NEW_STATE} and {@link #IOCTL}; then, when they link, the netlink calls
   * from {@link #SOCKET} to {@link #AS_BYTE_BUFFER} ({@link #NETLINK_HANDLES} in all).
   *
   * @throws ReflectiveOperationException when this JDK has no (final) Foreign Function &amp; Memory
   *     API or libc has no {@code getsockopt}
   */
  public static MethodHandle[] bind() throws ReflectiveOperationException {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> pathType = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
    Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> intLayoutType = Class.forName("java.lang.foreign.ValueLayout$OfInt");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> symbolsType = Class.forName("java.lang.foreign.SymbolLookup");
    Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
    Class<?> allocatorType = Class.forName("java.lang.foreign.SegmentAllocator");

    Object linker = linkerType.getMethod("nativeLinker").invoke(null);
    Object symbols = linkerType.getMethod("defaultLookup").invoke(linker);
    Object symbol =
        ((Optional<?>) symbolsType.getMethod("find", String.class).invoke(symbols, "getsockopt"))
            .orElseThrow(() -> new NoSuchMethodException("libc has no getsockopt"));
    Object intLayout = valueLayoutType.getField("JAVA_INT").get(null);
    Object address = valueLayoutType.getField("ADDRESS").get(null);
    Object arguments = arrayOf(layoutType, intLayout, intLayout, intLayout, address, address);
    Object descriptor =
        descriptorType
            .getMethod("of", layoutType, arguments.getClass())
            .invoke(null, intLayout, arguments);
    Object options =
        arrayOf(
            optionType,
            optionType.getMethod("critical", boolean.class).invoke(null, true),
            optionType
                .getMethod("captureCallState", String[].class)
                .invoke(null, (Object) new String[] {"errno"}));
    MethodHandle linked =
        (MethodHandle)
            linkerType
                .getMethod("downcallHandle", segmentType, descriptorType, options.getClass())
                .invoke(linker, symbol, descriptor, options);
    // (MemorySegment state, int, int, int, MemorySegment, MemorySegment) int, with the two buffers
    // taken as Java arrays and the state as Object: callers compiled for Java 17 can invokeExact.
    MethodHandle call =
        MethodHandles.filterArguments(
            linked,
            4,
            lookup.findStatic(
                segmentType, "ofArray", MethodType.methodType(segmentType, byte[].class)),
            lookup.findStatic(
                segmentType, "ofArray", MethodType.methodType(segmentType, int[].class)));
    call =
        call.asType(
            MethodType.methodType(
                int.class,
                Object.class,
                int.class,
                int.class,
                int.class,
                byte[].class,
                int[].class));

    Object stateLayout = optionType.getMethod("captureStateLayout").invoke(null);
    Object errnoPath =
        arrayOf(pathType, pathType.getMethod("groupElement", String.class).invoke(null, "errno"));
    long errnoOffset =
        (long)
            layoutType.getMethod("byteOffset", errnoPath.getClass()).invoke(stateLayout, errnoPath);
    MethodHandle errno =
        MethodHandles.insertArguments(
                lookup.findVirtual(
                    segmentType,
                    "get",
                    MethodType.methodType(int.class, intLayoutType, long.class)),
                1,
                intLayout,
                errnoOffset)
            .asType(MethodType.methodType(int.class, Object.class));
    // Each thread's cell lives as long as the thread holds it (an automatic arena).
    MethodHandle allocate =
        MethodHandles.insertArguments(
            lookup.findVirtual(
                allocatorType, "allocate", MethodType.methodType(segmentType, layoutType)),
            1,
            stateLayout);
    MethodHandle newState =
        MethodHandles.filterReturnValue(
                lookup.findStatic(arenaType, "ofAuto", MethodType.methodType(arenaType)),
                allocate.asType(MethodType.methodType(segmentType, arenaType)))
            .asType(MethodType.methodType(Object.class));
    MethodHandle ioctl;
    try {
      ioctl = bindIoctl(lookup, linker, symbols);
    } catch (ReflectiveOperationException | RuntimeException e) {
      ioctl = null; // the delivery sampler then reads tcpi_bytes_acked
    }
    MethodHandle[] getsockopt = {call, errno, newState, ioctl};
    try {
      MethodHandle[] netlink = bindNetlink(lookup, linker, symbols);
      MethodHandle[] all = new MethodHandle[NETLINK_HANDLES];
      System.arraycopy(getsockopt, 0, all, 0, getsockopt.length);
      System.arraycopy(netlink, 0, all, getsockopt.length, netlink.length);
      return all;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return getsockopt; // TCP_INFO still reads socket by socket
    }
  }

  /**
   * {@code ioctl(int fd, unsigned long request, ...)} with one pointer after the request (the
   * variadic part), critical with heap access: {@code (int, long, int[]) int}.
   */
  private static MethodHandle bindIoctl(MethodHandles.Lookup lookup, Object linker, Object symbols)
      throws ReflectiveOperationException {
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Object options =
        arrayOf(
            optionType,
            optionType.getMethod("critical", boolean.class).invoke(null, true),
            optionType.getMethod("firstVariadicArg", int.class).invoke(null, 2));
    MethodHandle linked =
        link(
            linker,
            symbols,
            "ioctl",
            options,
            valueLayoutType.getField("JAVA_INT").get(null),
            valueLayoutType.getField("JAVA_INT").get(null),
            valueLayoutType.getField("JAVA_LONG").get(null),
            valueLayoutType.getField("ADDRESS").get(null));
    return MethodHandles.filterArguments(
            linked,
            2,
            lookup.findStatic(
                segmentType, "ofArray", MethodType.methodType(segmentType, int[].class)))
        .asType(MethodType.methodType(int.class, int.class, long.class, int[].class));
  }

  /**
   * {@code socket}, {@code sendto}, {@code recv} and {@code close}, linked as ordinary (not
   * critical) calls since a dump's {@code recv} does the kernel's work and may take a while, on
   * native segments; and the segment allocator and view they need.
   */
  private static MethodHandle[] bindNetlink(
      MethodHandles.Lookup lookup, Object linker, Object symbols)
      throws ReflectiveOperationException {
    Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
    Class<?> valueLayoutType = Class.forName("java.lang.foreign.ValueLayout");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
    Class<?> allocatorType = Class.forName("java.lang.foreign.SegmentAllocator");
    Object intLayout = valueLayoutType.getField("JAVA_INT").get(null);
    Object longLayout = valueLayoutType.getField("JAVA_LONG").get(null);
    Object address = valueLayoutType.getField("ADDRESS").get(null);
    Object captureErrno =
        optionType
            .getMethod("captureCallState", String[].class)
            .invoke(null, (Object) new String[] {"errno"});
    Object withErrno = arrayOf(optionType, captureErrno);
    Object none = arrayOf(optionType);

    MethodHandle socket =
        link(linker, symbols, "socket", withErrno, intLayout, intLayout, intLayout, intLayout)
            .asType(
                MethodType.methodType(int.class, Object.class, int.class, int.class, int.class));
    MethodHandle sendto =
        link(
                linker,
                symbols,
                "sendto",
                withErrno,
                longLayout,
                intLayout,
                address,
                longLayout,
                intLayout,
                address,
                intLayout)
            .asType(
                MethodType.methodType(
                    long.class,
                    Object.class,
                    int.class,
                    Object.class,
                    long.class,
                    int.class,
                    Object.class,
                    int.class));
    MethodHandle recv =
        link(
                linker,
                symbols,
                "recv",
                withErrno,
                longLayout,
                intLayout,
                address,
                longLayout,
                intLayout)
            .asType(
                MethodType.methodType(
                    long.class, Object.class, int.class, Object.class, long.class, int.class));
    MethodHandle close =
        link(linker, symbols, "close", none, intLayout, intLayout)
            .asType(MethodType.methodType(int.class, int.class));

    // (long bytes) -> Arena.ofAuto().allocate(bytes): the segment keeps its arena alive.
    MethodHandle allocate =
        MethodHandles.collectArguments(
                lookup
                    .findVirtual(
                        allocatorType, "allocate", MethodType.methodType(segmentType, long.class))
                    .asType(MethodType.methodType(segmentType, arenaType, long.class)),
                0,
                lookup.findStatic(arenaType, "ofAuto", MethodType.methodType(arenaType)))
            .asType(MethodType.methodType(Object.class, long.class));
    MethodHandle asByteBuffer =
        lookup
            .findVirtual(
                segmentType, "asByteBuffer", MethodType.methodType(java.nio.ByteBuffer.class))
            .asType(MethodType.methodType(java.nio.ByteBuffer.class, Object.class));
    return new MethodHandle[] {socket, sendto, recv, close, allocate, asByteBuffer};
  }

  /** libc's {@code name}, returning {@code result} and taking {@code arguments}. */
  private static MethodHandle link(
      Object linker,
      Object symbols,
      String name,
      Object options,
      Object result,
      Object... arguments)
      throws ReflectiveOperationException {
    Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
    Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
    Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
    Class<?> symbolsType = Class.forName("java.lang.foreign.SymbolLookup");
    Object symbol =
        ((Optional<?>) symbolsType.getMethod("find", String.class).invoke(symbols, name))
            .orElseThrow(() -> new NoSuchMethodException("libc has no " + name));
    Object layouts = arrayOf(layoutType, arguments);
    Object descriptor =
        descriptorType
            .getMethod("of", layoutType, layouts.getClass())
            .invoke(null, result, layouts);
    return (MethodHandle)
        linkerType
            .getMethod("downcallHandle", segmentType, descriptorType, options.getClass())
            .invoke(linker, symbol, descriptor, options);
  }

  private static Object arrayOf(Class<?> type, Object... values) {
    Object array = Array.newInstance(type, values.length);
    for (int i = 0; i < values.length; i++) {
      Array.set(array, i, values[i]);
    }
    return array;
  }
}

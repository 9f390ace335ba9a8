package io.faultline.core.net;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds the file descriptor of a socket of this process, which {@link TcpInfoReader} needs. Two
 * ways, neither of which throws:
 *
 * <ul>
 *   <li>{@link #ofChannel(SocketChannel)}: asks the JDK's {@code SocketChannelImpl.getFDVal()}
 *       reflectively. Works only when {@code java.base/sun.nio.ch} is opened to Faultline's module
 *       (the agent does that with {@code Instrumentation.redefineModule}).
 *   <li>{@link #byAddress(InetSocketAddress, InetSocketAddress)}: no reflection; walks {@code
 *       /proc/self/fd} for {@code socket:[inode]} links and finds the inode whose row in {@code
 *       /proc/self/net/tcp6} or {@code tcp} has that remote (and local) address.
 * </ul>
 */
public final class SocketFds {

  private final Path procSelf;
  private final ProcNetTcp parser;

  /**
   * Looks up sockets under {@code procSelf} (normally {@code /proc/self}), whose tables were
   * printed by a kernel of {@code parser}'s byte order.
   */
  public SocketFds(Path procSelf, ProcNetTcp parser) {
    this.procSelf = Objects.requireNonNull(procSelf, "procSelf");
    this.parser = Objects.requireNonNull(parser, "parser");
  }

  /** Looks up this process's own sockets. */
  public static SocketFds forThisProcess() {
    return new SocketFds(Paths.get("/proc/self"), ProcNetTcp.nativeOrder());
  }

  /**
   * The descriptor of an open JDK {@link SocketChannel}, read through {@code
   * sun.nio.ch.SocketChannelImpl.getFDVal()}; unavailable (with the reason) when that package is
   * not opened to this class's module, the channel is closed, or the JDK has no such method.
   */
  public static Outcome<Integer> ofChannel(SocketChannel channel) {
    Objects.requireNonNull(channel, "channel");
    Module base = Object.class.getModule();
    if (!base.isOpen("sun.nio.ch", SocketFds.class.getModule())) {
      return Outcome.unavailable(
          "java.base/sun.nio.ch is not opened to "
              + SocketFds.class.getModule()
              + " (run with the Faultline agent, or --add-opens java.base/sun.nio.ch=...)");
    }
    if (!channel.isOpen()) {
      return Outcome.unavailable("the channel is closed");
    }
    try {
      Method getFdVal = findGetFdVal(channel.getClass());
      if (getFdVal == null) {
        return Outcome.unavailable(channel.getClass().getName() + " has no getFDVal()");
      }
      getFdVal.setAccessible(true);
      int fd = (Integer) getFdVal.invoke(channel);
      return fd >= 0 ? Outcome.of(fd) : Outcome.unavailable("the channel has no descriptor");
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      return Outcome.unavailable("SocketChannelImpl.getFDVal() failed: " + cause);
    }
  }

  private static Method findGetFdVal(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredMethod("getFDVal");
      } catch (NoSuchMethodException e) {
        // keep looking up the hierarchy
      }
    }
    return null;
  }

  /**
   * The descriptor of this process's TCP socket connected to {@code remote}.
   *
   * @param remote the peer's address and port
   * @param local this side's address and port, to tell apart two connections to the same peer;
   *     {@code null} when any local address will do
   * @return the lowest matching descriptor, or why none was found
   */
  public Outcome<Integer> byAddress(InetSocketAddress remote, InetSocketAddress local) {
    Objects.requireNonNull(remote, "remote");
    Map<Long, Integer> fdByInode;
    try {
      fdByInode = socketInodes();
    } catch (IOException | RuntimeException e) {
      return Outcome.unavailable("cannot list " + procSelf.resolve("fd") + ": " + e);
    }
    if (fdByInode.isEmpty()) {
      return Outcome.unavailable("this process has no open sockets in " + procSelf.resolve("fd"));
    }
    List<String> tried = new ArrayList<>();
    for (String table : List.of("net/tcp6", "net/tcp")) {
      Path path = procSelf.resolve(table);
      List<String> lines;
      try {
        lines = Files.readAllLines(path);
      } catch (IOException | RuntimeException e) {
        tried.add(path + " (" + e.getMessage() + ")");
        continue;
      }
      tried.add(path.toString());
      Integer best = null;
      for (ProcNetTcp.Entry entry : parser.parse(lines)) {
        if (!matches(entry.remote(), remote) || (local != null && !matches(entry.local(), local))) {
          continue;
        }
        Integer fd = fdByInode.get(entry.inode());
        if (fd != null && (best == null || fd < best)) {
          best = fd;
        }
      }
      if (best != null) {
        return Outcome.of(best);
      }
    }
    return Outcome.unavailable(
        "no socket of this process is connected to "
            + remote
            + (local == null ? "" : " from " + local)
            + " (looked in "
            + String.join(", ", tried)
            + ")");
  }

  /**
   * One connection this process accepted on one of its listeners.
   *
   * @param fd its descriptor
   * @param local this side's address; its port is the listener's
   * @param remote the client's address and port
   */
  public record Accepted(int fd, InetSocketAddress local, InetSocketAddress remote) {}

  /**
   * This process's established TCP connections whose local port is one of {@code listeningPorts}:
   * the connections its listeners accepted. One pass over the descriptors and the namespace's TCP
   * tables, however many connections there are.
   */
  public Outcome<List<Accepted>> acceptedOn(Set<Integer> listeningPorts) {
    Map<Long, Integer> fdByInode;
    try {
      fdByInode = socketInodes();
    } catch (IOException | RuntimeException e) {
      return Outcome.unavailable("cannot list " + procSelf.resolve("fd") + ": " + e);
    }
    List<Accepted> accepted = new ArrayList<>();
    int tablesRead = 0;
    for (String table : List.of("net/tcp6", "net/tcp")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(procSelf.resolve(table));
      } catch (IOException | RuntimeException e) {
        continue;
      }
      tablesRead++;
      for (String line : lines) {
        ProcNetTcp.Entry entry = parser.parseLine(line).orElse(null);
        if (entry == null
            || entry.state() != TcpState.ESTABLISHED
            || !listeningPorts.contains(entry.local().getPort())) {
          continue;
        }
        Integer fd = fdByInode.get(entry.inode());
        if (fd != null) {
          accepted.add(new Accepted(fd, entry.local(), entry.remote()));
        }
      }
    }
    return tablesRead == 0
        ? Outcome.unavailable("cannot read " + procSelf.resolve("net/tcp"))
        : Outcome.of(accepted);
  }

  /**
   * The local ports on which this process's own TCP sockets listen (a server's listeners, an
   * embedded HTTP endpoint), or why they cannot be listed.
   */
  public Outcome<Set<Integer>> listeningPorts() {
    Outcome<Map<Integer, Integer>> sockets = listeningSockets();
    return sockets.isAvailable()
        ? Outcome.of(Set.copyOf(sockets.value().orElseThrow().keySet()))
        : Outcome.unavailable(sockets.reason().orElseThrow());
  }

  /**
   * This process's own listening TCP sockets: local port to the descriptor (the lowest, when one
   * port has several), or why they cannot be listed.
   */
  public Outcome<Map<Integer, Integer>> listeningSockets() {
    // The tables first, and only their listeners' rows parsed: a service with a thousand broker
    // connections has thousands of other rows, and the descriptors are read only if a listener is
    // in the namespace at all.
    Map<Long, Integer> portByInode = new HashMap<>();
    int tablesRead = 0;
    for (String table : List.of("net/tcp6", "net/tcp")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(procSelf.resolve(table));
      } catch (IOException | RuntimeException e) {
        continue; // no IPv6 here, say
      }
      tablesRead++;
      for (String line : lines) {
        if (ProcNetTcp.stateOf(line) == TcpState.LISTEN) {
          parser
              .parseLine(line)
              .ifPresent(entry -> portByInode.put(entry.inode(), entry.local().getPort()));
        }
      }
    }
    if (tablesRead == 0) {
      return Outcome.unavailable("cannot read " + procSelf.resolve("net/tcp"));
    }
    if (portByInode.isEmpty()) {
      return Outcome.of(Map.of());
    }
    Map<Long, Integer> fdByInode;
    try {
      fdByInode = socketInodes();
    } catch (IOException | RuntimeException e) {
      return Outcome.unavailable("cannot list " + procSelf.resolve("fd") + ": " + e);
    }
    Map<Integer, Integer> ports = new TreeMap<>();
    portByInode.forEach(
        (inode, port) -> {
          Integer fd = fdByInode.get(inode);
          if (fd != null) {
            ports.merge(port, fd, Math::min);
          }
        });
    return Outcome.of(Map.copyOf(ports));
  }

  /**
   * This process's sockets: each {@code socket:[inode]} link of its descriptors, inode to the
   * lowest descriptor. One pass over the descriptors, no TCP table read: what a {@link TcpInfoDump}
   * caller keeps its own sockets by.
   */
  public Outcome<Map<Long, Integer>> descriptorsByInode() {
    try {
      return Outcome.of(socketInodes());
    } catch (IOException | RuntimeException e) {
      return Outcome.unavailable("cannot list " + procSelf.resolve("fd") + ": " + e);
    }
  }

  private static boolean matches(InetSocketAddress row, InetSocketAddress wanted) {
    if (row.getPort() != wanted.getPort()) {
      return false;
    }
    // An unresolved or wildcard wanted address matches on the port alone.
    if (wanted.isUnresolved() || wanted.getAddress().isAnyLocalAddress()) {
      return true;
    }
    return row.getAddress().equals(wanted.getAddress());
  }

  /** Socket inode → the lowest fd that refers to it. */
  private Map<Long, Integer> socketInodes() throws IOException {
    Map<Long, Integer> byInode = new HashMap<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(procSelf.resolve("fd"))) {
      for (Path p : dir) {
        int fd;
        String target;
        try {
          fd = Integer.parseInt(p.getFileName().toString());
          target = Files.readSymbolicLink(p).toString();
        } catch (NumberFormatException e) {
          continue; // not a descriptor entry
        } catch (IOException | UnsupportedOperationException e) {
          continue; // closed between listing and reading, or a fixture that is a plain file
        }
        if (target.startsWith("socket:[") && target.endsWith("]")) {
          try {
            byInode.merge(Long.parseLong(target.substring(8, target.length() - 1)), fd, Math::min);
          } catch (NumberFormatException e) {
            // not a socket link we understand
          }
        }
      }
    }
    return byInode;
  }
}

#!/usr/bin/env bash
# Builds libfaultline-net.so (faultline_net.c) for this Linux host's architecture, and for AArch64
# too where a cross compiler is installed, into the class directory the jar is made from:
#   build.sh <JDK home> <classes directory>
# Without a C compiler (or off Linux) it says so and builds nothing: the library then falls back to
# JNA for the delivery sample, as on any architecture without a build here.
set -euo pipefail
jdk="$1"
classes="$2"
src="$(cd "$(dirname "$0")" && pwd)/faultline_net.c"
dir="$classes/io/faultline/core/net/native"

if [[ "$(uname -s)" != Linux ]]; then
  echo "[faultline-net] not Linux: no JNI library built" >&2
  exit 0
fi
if [[ ! -f "$jdk/include/jni.h" ]]; then
  echo "[faultline-net] $jdk/include/jni.h is missing: no JNI library built" >&2
  exit 0
fi

# The directory names are the ones JniSocketCalls derives from os.arch.
build() {
  local compiler="$1" arch="$2"
  mkdir -p "$dir/linux-$arch"
  "$compiler" -O2 -fPIC -shared -fvisibility=hidden -Wall -Werror -Wno-unused-parameter \
    -I"$jdk/include" -I"$jdk/include/linux" -Wl,-z,noexecstack -Wl,--build-id=none -s \
    -o "$dir/linux-$arch/libfaultline-net.so" "$src"
  echo "[faultline-net] built linux-$arch/libfaultline-net.so with $compiler"
}

case "$(uname -m)" in
  x86_64) host=x86-64 ;;
  aarch64 | arm64) host=aarch64 ;;
  *) host="" ;;
esac
if [[ -n "$host" ]]; then
  if command -v cc >/dev/null; then
    build cc "$host"
  else
    echo "[faultline-net] no C compiler (cc): no JNI library built; install gcc for one" >&2
  fi
fi
if [[ "$host" != aarch64 ]] && command -v aarch64-linux-gnu-gcc >/dev/null; then
  build aarch64-linux-gnu-gcc aarch64
fi

package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;

/** Attaches the agent to a running child JVM, as the Attach API's users do. */
final class Attach {

  private Attach() {}

  /** Loads the agent into the JVM {@code pid} with {@code agentArgs}. */
  static void agent(long pid, String agentArgs) throws Exception {
    VirtualMachine vm = null;
    for (int i = 0; i < 50 && vm == null; i++) {
      try {
        vm = VirtualMachine.attach(String.valueOf(pid));
      } catch (AttachNotSupportedException | IOException e) {
        Thread.sleep(100); // the child's attach listener is not up yet
      }
    }
    assertThat(vm).as("attached to the child").isNotNull();
    try {
      vm.loadAgent(ChildJvm.agentJar().toString(), agentArgs);
    } finally {
      vm.detach();
    }
  }
}

package faultlineit.txapp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.springframework.transaction.annotation.Propagation;

/**
 * An application with nested transactional service methods and no Faultline code (and outside
 * io.faultline.*, which the agent never instruments): a JTA-annotated {@code placeOrder} calls a
 * Spring-annotated {@code charge} (NESTED) and a {@code audit} (REQUIRES_NEW), twice; then prints
 * {@code ready} and waits for a line on standard input.
 */
public final class TransactionalApp {

  private TransactionalApp() {}

  /** The outer service. */
  public static final class OrderService {
    private final PaymentService payments = new PaymentService();

    /** Outer transactional method. */
    @jakarta.transaction.Transactional
    public int placeOrder(int amount) {
      return payments.charge(amount) + payments.audit(amount);
    }
  }

  /** The inner service. */
  public static final class PaymentService {
    /** Inner, a savepoint under Spring. */
    @org.springframework.transaction.annotation.Transactional(propagation = Propagation.NESTED)
    public int charge(int amount) {
      return amount;
    }

    /** Inner, a new transaction under Spring. */
    @org.springframework.transaction.annotation.Transactional(
        propagation = Propagation.REQUIRES_NEW)
    public int audit(int amount) {
      return 0;
    }
  }

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // The nesting is what the test is about: not before the agent has woven these classes.
    io.faultline.it.agent.app.AgentReady.await();
    OrderService orders = new OrderService();
    int total = orders.placeOrder(5) + orders.placeOrder(7);
    // not nested: entered with nothing active
    total += new PaymentService().charge(1);
    System.out.println("total " + total);
    System.out.println("ready");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
  }
}

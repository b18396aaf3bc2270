"""TF24503: TensorFloat-32 is on by default from TF 2.4 (on Ampere GPUs); the switch is new in 2.4."""
import tensorflow as tf


def main():
    product = tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)))
    assert float(tf.reduce_sum(product)) == 8.0
    print("OK")


if __name__ == "__main__":
    main()

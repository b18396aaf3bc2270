"""`tf.debugging.assert_rank_in` of a Keras input, under `tf.control_dependencies`, while a Functional model is built: on TF 2.4 the assertion dispatches to an op layer whose output is an Operation, which Keras cannot wrap.
Report: tensorflow-addons 0.11.2 → 0.12.0 (`tensorflow_addons/image/utils.py`, `to_4D_image`, which `tfa.image.rotate`, `transform`, `sharpness` and `equalize` call first): unchanged in 0.12.0, so `tfa.image.rotate(tf.keras.Input((8, 8, 3)), 0.3)` builds a model on 2.3.0 and raises `TypeError: Could not build a TypeSpec for <tf.Operation 'tf.debugging.assert_rank_in/assert_rank_in/static_checks_determined_all_ok' type=NoOp>` on 2.4.0 with either release (found by running 0.11.2's image functions on a Keras input on both runtimes; the diff shows no change there)"""
import numpy as np
import tensorflow as tf


def to_4D_image(image):
    with tf.control_dependencies([tf.debugging.assert_rank_in(image, [2, 3, 4], message="`image` must be 2/3/4D tensor")]):
        ndims = image.get_shape().ndims
        if ndims == 3:
            return image[None, :, :, :]
        return image


images = tf.keras.Input((8, 8, 3))
model = tf.keras.Model(images, tf.image.flip_left_right(to_4D_image(images)))
print(model.predict(np.zeros((1, 8, 8, 3), "float32")).shape)
print("OK")

"""A custom `tf.function` training step that logs the loss scale by calling `optimizer.loss_scale()`.
Report: public code ([christianpayer/MedicalDataAugmentationTool-VerSe](https://github.com/christianpayer/MedicalDataAugmentationTool-VerSe), `verse2020/training/main_vertebrae_segmentation.py`, for `tensorflow-gpu==2.2.0`): `loss_scale = self.optimizer.loss_scale()`"""
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as mixed_precision

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
optimizer = tf.keras.optimizers.Adam(learning_rate=0.0001)
optimizer = mixed_precision.LossScaleOptimizer(optimizer, loss_scale="dynamic")
tf.config.run_functions_eagerly(True)  # so that the traceback ends in `train_step`


@tf.function
def train_step(image, target):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(image, training=True) - target))
        scaled_loss = optimizer.get_scaled_loss(loss)
    variables = model.trainable_weights
    scaled_grads = tape.gradient(scaled_loss, variables)
    grads = optimizer.get_unscaled_gradients(scaled_grads)
    loss_scale = optimizer.loss_scale()
    optimizer.apply_gradients(zip(grads, variables))
    return {"loss": loss, "loss_scale": loss_scale}


print(train_step(tf.ones((2, 3)), tf.ones((2, 1))))
print("OK")

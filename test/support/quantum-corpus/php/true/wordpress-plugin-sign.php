<?php
/**
 * Plugin Name: Signed Exports
 * Description: Signs CSV exports with the site's RSA key.
 */

add_action('admin_post_signed_export', function () {
    $csv = build_export_csv();
    $key = openssl_pkey_get_private(get_option('signed_exports_private_key'));
    if (openssl_sign($csv, $signature, $key)) { // expect: signature RSA
        header('X-Signature: ' . base64_encode($signature));
    }
    echo $csv;
});

<?php

namespace App\Http\Controllers;

use Illuminate\Support\Facades\Crypt;
use Illuminate\Support\Facades\Hash;

class VaultController extends Controller
{
    public function store(Request $request)
    {
        $secret = Crypt::encryptString($request->input('secret'));
        $pin = Hash::make($request->input('pin'));
        return response()->json(['secret' => $secret, 'pin' => $pin]);
    }
}
